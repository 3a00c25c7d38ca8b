import { sameColour } from "./chart-data";

// Rewrites of server-rendered SVG markup (React's renderToStaticMarkup output: every attribute
// value double-quoted and escaped, so no '>' or '"' inside one).

// CSS properties SVG also accepts as presentation attributes (SVG 2 §6.6).
const PRESENTATION_ATTRIBUTES = new Set([
  "alignment-baseline",
  "baseline-shift",
  "clip",
  "clip-path",
  "clip-rule",
  "color",
  "color-interpolation",
  "color-interpolation-filters",
  "cursor",
  "direction",
  "display",
  "dominant-baseline",
  "fill",
  "fill-opacity",
  "fill-rule",
  "filter",
  "flood-color",
  "flood-opacity",
  "font-family",
  "font-size",
  "font-size-adjust",
  "font-stretch",
  "font-style",
  "font-variant",
  "font-weight",
  "image-rendering",
  "letter-spacing",
  "lighting-color",
  "marker-end",
  "marker-mid",
  "marker-start",
  "mask",
  "opacity",
  "overflow",
  "paint-order",
  "pointer-events",
  "shape-rendering",
  "stop-color",
  "stop-opacity",
  "stroke",
  "stroke-dasharray",
  "stroke-dashoffset",
  "stroke-linecap",
  "stroke-linejoin",
  "stroke-miterlimit",
  "stroke-opacity",
  "stroke-width",
  "text-anchor",
  "text-decoration",
  "text-rendering",
  "unicode-bidi",
  "vector-effect",
  "visibility",
  "word-spacing",
  "writing-mode",
]);

const TAG = /<([a-zA-Z][\w:.-]*)((?:\s+[^\s=>/]+(?:="[^"]*")?)*)\s*(\/?)>/g;
const ATTRIBUTE = /\s+([^\s=>/]+)(?:="([^"]*)")?/g;

function readAttributes(text: string): Map<string, string | null> {
  const attributes = new Map<string, string | null>();
  for (const match of text.matchAll(ATTRIBUTE)) attributes.set(match[1]!, match[2] ?? null);
  return attributes;
}

function writeTag(name: string, attributes: Map<string, string | null>, selfClosing: string): string {
  const text = [...attributes].map(([key, value]) => (value === null ? ` ${key}` : ` ${key}="${value}"`)).join("");
  return `<${name}${text}${selfClosing ? "/" : ""}>`;
}

/**
 * Every `style` attribute becomes presentation attributes (`style="fill:#333;font-size:11px"` →
 * `fill="#333" font-size="11px"`), which overwrite attributes of the same name as the style did.
 * Declarations that are not presentation attributes are dropped. The SVG then needs no inline
 * styles under a strict Content-Security-Policy, and the page's stylesheet can restyle it
 * (presentation attributes lose to any CSS rule, inline styles win over them).
 */
export function styleToPresentationAttributes(markup: string): string {
  return markup.replace(TAG, (tag, name: string, attributeText: string, selfClosing: string) => {
    if (!/\sstyle="/.test(attributeText)) return tag;
    const attributes = readAttributes(attributeText);
    const style = attributes.get("style") ?? "";
    attributes.delete("style");
    for (const declaration of style.split(";")) {
      const colon = declaration.indexOf(":");
      if (colon < 0) continue;
      const property = declaration.slice(0, colon).trim().toLowerCase();
      const value = declaration.slice(colon + 1).trim();
      if (value && PRESENTATION_ATTRIBUTES.has(property)) attributes.set(property, value);
    }
    return writeTag(name, attributes, selfClosing);
  });
}

const GEOMETRY = new Set(["x", "y", "x1", "x2", "y1", "y2", "width", "height", "transform", "d", "r", "cx", "cy"]);

/** Numbers in geometry attributes to at most 2 decimals (112.66666666666667 → 112.67). */
export function roundGeometry(markup: string): string {
  return markup.replace(TAG, (tag, name: string, attributeText: string, selfClosing: string) => {
    if (!/\d\.\d{3}/.test(attributeText)) return tag;
    const attributes = readAttributes(attributeText);
    for (const [key, value] of attributes) {
      if (value === null || !GEOMETRY.has(key)) continue;
      attributes.set(
        key,
        value.replace(/-?\d+\.\d{3,}/g, (n) => String(Math.round(Number(n) * 100) / 100)),
      );
    }
    return writeTag(name, attributes, selfClosing);
  });
}

const escapeText = (text: string) =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/**
 * The root `<svg width height>` made to scale: a `viewBox` of its size, `width="100%"` (its height
 * follows the aspect ratio), and a `<title>` as its first child.
 */
export function responsiveSvg(markup: string, title: string): string {
  let done = false;
  return markup.replace(TAG, (tag, name: string, attributeText: string, selfClosing: string) => {
    if (done || name !== "svg") return tag;
    done = true;
    const attributes = readAttributes(attributeText);
    const width = Number(attributes.get("width"));
    const height = Number(attributes.get("height"));
    attributes.delete("width");
    attributes.delete("height");
    const ordered = new Map<string, string | null>([
      ["viewBox", `0 0 ${width} ${height}`],
      ["width", "100%"],
      ["preserveAspectRatio", "xMidYMid meet"],
      ...attributes,
    ]);
    const open = writeTag(name, ordered, "");
    const titled = `${open}<title>${escapeText(title)}</title>`;
    return selfClosing ? `${titled}</svg>` : titled;
  });
}

const COLOUR_ATTRIBUTES = new Set(["fill", "stroke", "color", "stop-color", "flood-color", "lighting-color"]);
const OPAQUE_RGB = /^rgba?\(\s*(\d{1,3})\s*,\s*(\d{1,3})\s*,\s*(\d{1,3})\s*(?:,\s*1(?:\.0*)?\s*)?\)$/;

/**
 * Opaque `rgb()`/`rgba(…, 1)` colours in colour attributes written as hex (`rgba(29, 79, 145, 1)`
 * → `#1d4f91`): nivo's spring-driven shapes (pie arcs, bars) write their colours that way even when
 * not animated. Translucent colours are left as they are.
 */
export function hexColours(markup: string): string {
  return markup.replace(TAG, (tag, name: string, attributeText: string, selfClosing: string) => {
    if (!/rgba?\(/.test(attributeText)) return tag;
    const attributes = readAttributes(attributeText);
    for (const [key, value] of attributes) {
      const match = value === null || !COLOUR_ATTRIBUTES.has(key) ? null : OPAQUE_RGB.exec(value);
      if (!match || match.slice(1, 4).some((c) => Number(c) > 255)) continue;
      attributes.set(
        key,
        `#${match
          .slice(1, 4)
          .map((c) => Number(c).toString(16).padStart(2, "0"))
          .join("")}`,
      );
    }
    return writeTag(name, attributes, selfClosing);
  });
}

/**
 * Each element drawn in one of the chart's colours says which (`data-stroke="N"`, `data-fill="N"`:
 * the colour's place in `colours`, from 1, the first place when a colour is given twice), so that
 * the page's stylesheet draws it in the theme's version of that colour (`--chart-series-N`), with
 * the series' dash pattern, and in system colours when colours are forced (docs/decisions/203).
 * The colour stays in the attribute for anything that reads the SVG without the stylesheet.
 */
export function seriesColourAttributes(markup: string, colours: string[]): string {
  const palette = colours.map(sameColour);
  const numberOf = (value: string | null | undefined) => (value ? palette.indexOf(sameColour(value)) + 1 : 0);
  return markup.replace(TAG, (tag, name: string, attributeText: string, selfClosing: string) => {
    if (!/\s(?:stroke|fill)="(?:#|rgb)/.test(attributeText)) return tag;
    const attributes = readAttributes(attributeText);
    const stroke = numberOf(attributes.get("stroke"));
    const fill = numberOf(attributes.get("fill"));
    if (!stroke && !fill) return tag;
    if (stroke) attributes.set("data-stroke", String(stroke));
    if (fill) attributes.set("data-fill", String(fill));
    return writeTag(name, attributes, selfClosing);
  });
}
