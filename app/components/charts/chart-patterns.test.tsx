import { readFileSync } from "node:fs";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { CHART_PATTERNS, ChartPatterns, chartPatternId } from "./chart-patterns";

const markup = renderToStaticMarkup(<ChartPatterns />);
const stylesheet = readFileSync(new URL("./charts.css", import.meta.url), "utf8");
/** The rules inside `@media (forced-colors: active) { … }`. */
const forcedColours = (() => {
  const start = stylesheet.indexOf("@media (forced-colors: active)");
  let depth = 0;
  for (let i = stylesheet.indexOf("{", start); i < stylesheet.length; i++) {
    if (stylesheet[i] === "{") depth++;
    if (stylesheet[i] === "}" && --depth === 0) return stylesheet.slice(start, i + 1);
  }
  throw new Error("no forced-colours block in charts.css");
})();

/** The chart colours the stylesheet draws slices in (`[data-fill="N"]`, the site's nine). */
const CHART_COLOUR_COUNT = new Set(
  [...stylesheet.replace(forcedColours, "").matchAll(/\[data-fill="(\d+)"\] \{/g)].map((m) => m[1]),
).size;

describe("the slices' patterns under forced colours", () => {
  it("has one pattern for each of the charts' colours, each drawn differently", () => {
    expect(CHART_COLOUR_COUNT).toBe(9);
    expect(CHART_PATTERNS).toHaveLength(CHART_COLOUR_COUNT);
    const drawings = CHART_PATTERNS.map((p) => `${p.solid ? "solid" : "ground"} ${p.ink}`);
    expect(new Set(drawings).size).toBe(CHART_PATTERNS.length);
  });

  it("draws them in one hidden SVG, with the ids the stylesheet refers to", () => {
    expect(markup).toMatch(/^<svg class="chart-patterns" width="0" height="0" aria-hidden="true" focusable="false">/);
    const ids = [...markup.matchAll(/<pattern [^>]*id="([^"]+)"/g)].map((m) => m[1]);
    expect(ids).toEqual(CHART_PATTERNS.map((_, i) => chartPatternId(i + 1)));
    expect(markup).not.toContain("style=");
  });

  it("fills each colour's slices and legend blocks with that colour's pattern, in forced colours only", () => {
    const outside = stylesheet.replace(forcedColours, "");
    for (let n = 1; n <= CHART_COLOUR_COUNT; n++) {
      const rule = new RegExp(
        `\\.chart-figure \\[data-fill="${n}"\\] \\{[^}]*--chart-pattern: url\\(#${chartPatternId(n)}\\);`,
      );
      expect(outside).toMatch(rule);
    }
    expect(forcedColours).toMatch(
      /\.chart-figure svg\.allocation-chart \[data-fill\],\s*\.chart-legend__swatch--block \[data-fill\] \{\s*fill: var\(--chart-pattern\);/,
    );
    // elsewhere the patterns are named, never drawn with
    expect(outside).not.toMatch(/fill: (url\(#chart-pattern-|var\(--chart-pattern\))/);
  });
});
