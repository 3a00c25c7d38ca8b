import { describe, expect, it } from "vitest";
import { parseEnv } from "./env.server";

describe("ANALYTICS_PAGE_VIEWS (spec 000 §1 analytics monitor, decision 029)", () => {
  it("is on unless switched off", () => {
    expect(parseEnv({}).analyticsPageViews).toBe(true);
    expect(parseEnv({ ANALYTICS_PAGE_VIEWS: "true" }).analyticsPageViews).toBe(true);
    expect(parseEnv({ ANALYTICS_PAGE_VIEWS: "false" }).analyticsPageViews).toBe(false);
  });

  it("refuses anything but true or false", () => {
    expect(() => parseEnv({ ANALYTICS_PAGE_VIEWS: "off" })).toThrow(/ANALYTICS_PAGE_VIEWS/);
  });
});
