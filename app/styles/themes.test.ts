import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { contrastRatio } from "~/lib/theme";

// docs/decisions/203: the dark theme's tokens, for a user who chose Dark and for a device set to
// dark, and what they must keep (WCAG 1.4.3 and 1.4.11) whatever the page shows.
const css = readFileSync(new URL("./app.css", import.meta.url), "utf8");

/** The custom properties of the first rule whose selector is `selector` (after `from`), in order. */
function tokensOf(selector: string, from = 0): Map<string, string> {
  const start = css.indexOf(`${selector} {`, from);
  if (start < 0) throw new Error(`no rule ${selector}`);
  const body = css.slice(css.indexOf("{", start) + 1, css.indexOf("}", start));
  const tokens = new Map<string, string>();
  for (const match of body.matchAll(/(--[\w-]+):\s*([^;]+);/g)) tokens.set(match[1]!, match[2]!.trim());
  return tokens;
}

const light = tokensOf(":root");
const dark = tokensOf(':root[data-theme="dark"]');
const systemDark = tokensOf(
  ':root[data-theme="system"]',
  css.indexOf("@media screen and (prefers-color-scheme: dark)"),
);

// the colours that are the same in both themes: the focus ring (yellow inside black) and the unread badge
const SAME_IN_BOTH = new Set(["--colour-focus", "--colour-focus-ring", "--colour-badge"]);

describe("the dark theme's tokens", () => {
  it("are the same for a user who chose Dark as for a device set to dark", () => {
    expect([...systemDark]).toEqual([...dark]);
    // on screens only: a page prints in the light theme's colours
    expect(css).toMatch(/@media screen \{\s*:root\[data-theme="dark"\] \{\s*color-scheme: dark;/);
    expect(css).toMatch(/:root\[data-theme="system"\] \{\s*color-scheme: dark;/);
  });

  it("give every colour of the light theme a dark value", () => {
    const colours = [...light.keys()].filter((k) => k.startsWith("--colour-") && !SAME_IN_BOTH.has(k));
    expect(colours.length).toBeGreaterThan(25);
    expect(colours.filter((k) => !dark.has(k))).toEqual([]);
    expect([...Array(9)].map((_, i) => dark.has(`--chart-series-${i + 1}`))).toEqual(Array(9).fill(true));
  });

  const on = (tokens: Map<string, string>, name: string) => {
    const value = tokens.get(name);
    if (!value || !/^#[0-9a-f]{6}$/i.test(value)) throw new Error(`${name} is not a colour: ${value}`);
    return value;
  };
  const backgrounds = [
    "--colour-page",
    "--colour-surface",
    "--colour-brand-tint",
    "--colour-info-tint",
    "--colour-error-tint",
    "--colour-success-tint",
    "--colour-warning-tint",
    "--colour-neutral-tint",
    "--colour-table-head",
    "--colour-table-stripe",
  ];
  const texts = [
    "--colour-text",
    "--colour-muted",
    "--colour-brand",
    "--colour-brand-dark",
    "--colour-link",
    "--colour-link-visited",
    "--colour-error",
    "--colour-success",
    "--colour-info",
    "--colour-warning",
  ];

  it("keep each text colour 4.5:1 from each background it may stand on", () => {
    const short = backgrounds.flatMap((bg) =>
      texts
        .map((fg) => ({ fg, bg, ratio: contrastRatio(on(dark, fg), on(dark, bg)) }))
        .filter((pair) => pair.ratio < 4.5),
    );
    expect(short).toEqual([]);
  });

  it("keep buttons' text, controls' borders and the top bar readable", () => {
    expect(contrastRatio(on(dark, "--colour-on-brand"), on(dark, "--colour-brand"))).toBeGreaterThanOrEqual(4.5);
    expect(contrastRatio(on(dark, "--colour-on-brand"), on(dark, "--colour-brand-dark"))).toBeGreaterThanOrEqual(4.5);
    expect(contrastRatio(on(dark, "--colour-on-brand"), on(dark, "--colour-error"))).toBeGreaterThanOrEqual(4.5);
    expect(contrastRatio(on(dark, "--colour-on-brand"), on(dark, "--colour-error-strong"))).toBeGreaterThanOrEqual(4.5);
    expect(contrastRatio("#ffffff", on(dark, "--colour-top-bar"))).toBeGreaterThanOrEqual(4.5);
    for (const bg of ["--colour-page", "--colour-surface"])
      expect(contrastRatio(on(dark, "--colour-control-border"), on(dark, bg)), bg).toBeGreaterThanOrEqual(3);
  });

  it("keep the light theme's buttons as they were: white on the brand's blue", () => {
    expect(on(light, "--colour-on-brand")).toBe("#ffffff");
    expect(contrastRatio(on(light, "--colour-on-brand"), on(light, "--colour-brand"))).toBeGreaterThanOrEqual(4.5);
  });
});
