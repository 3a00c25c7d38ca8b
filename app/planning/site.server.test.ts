import { describe, expect, it } from "vitest";
import { DEFAULT_CHART_COLOURS, toSite } from "./site.server";

describe("toSite", () => {
  it("orders chart colours by their number, not by key order, and drops invalid ones", () => {
    const site = toSite({
      version: "22.9.240",
      settings: { chartColour10: "#000000", chartColour2: "#222222", chartColour1: "#111111", chartColour3: "red" },
      content: { pages: {} },
    });
    expect(site.chartColours).toEqual(["#111111", "#222222", "#000000"]);
  });
  it("falls back to the default palette and firm name", () => {
    const site = toSite({ version: null, settings: {}, content: { pages: {} } });
    expect(site.chartColours).toEqual(DEFAULT_CHART_COLOURS);
    expect(site.firmName).toBe("Client Online");
    expect(site.memorableWordEnabled).toBe(false);
  });
});
