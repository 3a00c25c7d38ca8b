import { describe, expect, it } from "vitest";
import { landingPath, safeRedirectPath } from "./redirect-to";

describe("safeRedirectPath", () => {
  it("keeps same-origin relative paths with their query", () => {
    expect(safeRedirectPath("/clients/personal-details?x=1")).toBe("/clients/personal-details?x=1");
  });
  it("refuses other origins and tricks", () => {
    for (const bad of ["https://evil.example/", "//evil.example", "/\\evil.example", "javascript:alert(1)", "clients", "", null, "/a\nb"]) {
      expect(safeRedirectPath(bad)).toBeNull();
    }
  });
});

describe("landingPath", () => {
  it("sends each role home by default", () => {
    expect(landingPath("ClientUser", null)).toBe("/clients");
    expect(landingPath("User", null)).toBe("/advisers");
    expect(landingPath("User", "/login?reason=LostSession")).toBe("/advisers");
  });
  it("honours a requested page of the user's own area only", () => {
    expect(landingPath("ClientUser", "/clients/personal-details")).toBe("/clients/personal-details");
    expect(landingPath("ClientUser", "/advisers/clients")).toBe("/clients");
    expect(landingPath("User", "/advisers/clients?name=smith")).toBe("/advisers/clients?name=smith");
    expect(landingPath("User", "/clients/home")).toBe("/advisers");
    expect(landingPath("User", "/core/site-terms")).toBe("/core/site-terms");
  });
});
