import { describe, expect, it } from "vitest";
import { contrastRatio, DARK_THEME_SLICE_TEXT, darkChartColour } from "~/lib/theme";
import { CHART_COLOUR_COUNT, DEFAULT_CHART_COLOURS, toSite } from "./site.server";

describe("toSite", () => {
  it("orders chart colours by their number, not by key order, and drops invalid ones", () => {
    const site = toSite({
      version: "22.9.240",
      settings: { chartColour10: "#000000", chartColour2: "#222222", chartColour1: "#111111", chartColour3: "red" },
      content: { pages: {} },
    });
    expect(site.chartColours).toEqual(["#111111", "#222222", "#000000"]);
  });
  it("takes the firm's first nine chart colours, the nine the stylesheet draws in each theme", () => {
    const settings = Object.fromEntries(
      [...Array(12)].map((_, i) => [`chartColour${i + 1}`, `#0000${(i + 16).toString(16)}`]),
    );
    const site = toSite({ version: null, settings, content: { pages: {} } });
    expect(site.chartColours).toHaveLength(CHART_COLOUR_COUNT);
    expect(site.chartColours).toEqual([...Array(9)].map((_, i) => `#0000${(i + 16).toString(16)}`));
  });
  it("falls back to the default palette and firm name", () => {
    const site = toSite({ version: null, settings: {}, content: { pages: {} } });
    expect(site.chartColours).toEqual(DEFAULT_CHART_COLOURS);
    expect(site.firmName).toBe("Client Online");
    expect(site.memorableWordEnabled).toBe(false);
  });
  it("has nine default colours, the first light blue, each at least 3:1 on white (spec 001 §9)", () => {
    expect(DEFAULT_CHART_COLOURS).toHaveLength(9);
    const channels = (hex: string) => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
    const [r, g, b] = channels(DEFAULT_CHART_COLOURS[0]!);
    expect(b).toBeGreaterThan(r! + 60);
    expect(b).toBeGreaterThan(g!);
    const luminance = (hex: string) => {
      const [lr, lg, lb] = channels(hex).map((c) => {
        const v = c / 255;
        return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
      });
      return 0.2126 * lr! + 0.7152 * lg! + 0.0722 * lb!;
    };
    for (const colour of DEFAULT_CHART_COLOURS)
      expect(1.05 / (luminance(colour) + 0.05), colour).toBeGreaterThanOrEqual(3);
  });
  // docs/decisions/203: the dark theme's page and surface colours (app.css, the dark tokens)
  it("has default colours that the dark theme draws at least 3:1 from its page and surfaces (WCAG 1.4.11)", () => {
    for (const colour of DEFAULT_CHART_COLOURS) {
      const dark = darkChartColour(colour);
      expect(contrastRatio(dark, "#10161f"), colour).toBeGreaterThanOrEqual(3);
      expect(contrastRatio(dark, "#1a2330"), colour).toBeGreaterThanOrEqual(3);
      expect(contrastRatio(dark, DARK_THEME_SLICE_TEXT), colour).toBeGreaterThanOrEqual(4.5);
    }
  });
});
