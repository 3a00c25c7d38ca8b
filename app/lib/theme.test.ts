import { describe, expect, it } from "vitest";
import { contrastRatio, DARK_THEME_SLICE_TEXT, darkChartColour, themeOf } from "./theme";

describe("themeOf", () => {
  it("takes the three themes and reads anything else as the device's setting", () => {
    expect(["system", "light", "dark"].map(themeOf)).toEqual(["system", "light", "dark"]);
    expect([undefined, null, "", "Dark", "blue", 1].map(themeOf)).toEqual(Array(6).fill("system"));
  });
});

describe("contrastRatio", () => {
  it("is WCAG's ratio, the same either way round, 1 for what is not a colour", () => {
    expect(contrastRatio("#000", "#fff")).toBeCloseTo(21, 5);
    expect(contrastRatio("#ffffff", "#000000")).toBeCloseTo(21, 5);
    expect(contrastRatio("#767676", "#ffffff")).toBeCloseTo(4.54, 2);
    expect(contrastRatio("#1d4f91", "#1d4f91")).toBe(1);
    expect(contrastRatio("red", "#fff")).toBe(1);
  });
});

describe("darkChartColour", () => {
  it("keeps a colour that is light enough as it is", () => {
    expect(darkChartColour("#ffdd00")).toBe("#ffdd00");
    expect(darkChartColour("#8fd0ff")).toBe("#8fd0ff");
  });

  it("mixes a dark colour with white, 5% at a time, until slice text reads 4.5:1 on it", () => {
    const dark = darkChartColour("#1d4f91");
    expect(contrastRatio(dark, DARK_THEME_SLICE_TEXT)).toBeGreaterThanOrEqual(4.5);
    // the step before was not enough: the colour is no lighter than it needs to be
    expect(dark).not.toBe("#1d4f91");
    expect(darkChartColour("#000")).toMatch(/^#([0-9a-f]{2})\1\1$/);
    expect(contrastRatio(darkChartColour("#000"), DARK_THEME_SLICE_TEXT)).toBeGreaterThanOrEqual(4.5);
  });

  it("answers what is not '#rgb' or '#rrggbb' as it is", () => {
    expect(darkChartColour("rebeccapurple")).toBe("rebeccapurple");
    expect(darkChartColour("#12345")).toBe("#12345");
  });
});
