import { describe, expect, it } from "vitest";
import { isSiteAccessLevel, SITE_ACCESS_MESSAGE_KEYS, siteAccessLevelOf, siteAccessProblemOf } from "./site-access";

describe("siteAccessLevelOf (spec 000 §3 mapping, §8 site access errors)", () => {
  it("maps the four client access levels", () => {
    expect(siteAccessLevelOf(0)).toEqual({ ok: true, level: "NotAssigned" });
    expect(siteAccessLevelOf(1)).toEqual({ ok: true, level: "Portfolio" });
    expect(siteAccessLevelOf(2)).toEqual({ ok: true, level: "Assets" });
    expect(siteAccessLevelOf(3)).toEqual({ ok: true, level: "Messages" });
  });

  it("has no mapping for any other number", () => {
    for (const value of [4, 7, -1, 1.5, 100]) {
      expect(siteAccessLevelOf(value)).toEqual({ ok: false, problem: "AccessLevelMapping" });
    }
  });

  it("cannot look up a missing or non-numeric level", () => {
    for (const value of [null, undefined, "1", "Portfolio", {}, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(siteAccessLevelOf(value)).toEqual({ ok: false, problem: "AccessLevelLookup" });
    }
  });
});

describe("the login page's site access errors", () => {
  it("reads only the three problems from the query", () => {
    expect(siteAccessProblemOf("AccessLevelLookup")).toBe("AccessLevelLookup");
    expect(siteAccessProblemOf("AccessLevelMapping")).toBe("AccessLevelMapping");
    expect(siteAccessProblemOf("AccessLevelError")).toBe("AccessLevelError");
    expect(siteAccessProblemOf("LostSession")).toBeNull();
    expect(siteAccessProblemOf(null)).toBeNull();
  });

  it("gives each problem its own text", () => {
    expect(new Set(Object.values(SITE_ACCESS_MESSAGE_KEYS)).size).toBe(3);
  });

  it("accepts only the four levels as a session's level", () => {
    expect(isSiteAccessLevel("Portfolio")).toBe(true);
    expect(isSiteAccessLevel("NotAssigned")).toBe(true);
    expect(isSiteAccessLevel(null)).toBe(false);
    expect(isSiteAccessLevel("Everything")).toBe(false);
  });
});
