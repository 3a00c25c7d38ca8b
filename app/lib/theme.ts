// How the portal looks to a user (docs/decisions/203): the device's setting (a light or dark
// colour scheme), or always light or always dark. Pure: the root loader, the preferences page and
// the charts share it.

export const THEMES = ["system", "light", "dark"] as const;
export type Theme = (typeof THEMES)[number];

export function isTheme(value: unknown): value is Theme {
  return THEMES.includes(value as Theme);
}

/** A theme from the platform or a form; anything else is the device's setting. */
export function themeOf(value: unknown): Theme {
  return isTheme(value) ? value : "system";
}

/** '#rgb' or '#rrggbb' as its three channels (0–255); null for anything else. */
export function colourChannels(colour: string): [number, number, number] | null {
  const hex = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(colour.trim())?.[1];
  if (!hex) return null;
  const full = hex.length === 3 ? [...hex].map((c) => c + c).join("") : hex;
  return [0, 2, 4].map((i) => parseInt(full.slice(i, i + 2), 16)) as [number, number, number];
}

/** WCAG relative luminance of an sRGB colour. */
export function relativeLuminance([r, g, b]: [number, number, number]): number {
  const linear = (c: number) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
}

/** The WCAG contrast ratio of two colours ('#rgb' or '#rrggbb'); 1 when either is not one. */
export function contrastRatio(a: string, b: string): number {
  const ca = colourChannels(a);
  const cb = colourChannels(b);
  if (!ca || !cb) return 1;
  const [high, low] = [relativeLuminance(ca), relativeLuminance(cb)].sort((x, y) => y - x) as [number, number];
  return (high + 0.05) / (low + 0.05);
}

/**
 * The dark theme's text colour on the charts' slices (app.css `--chart-label-dark`), which is the
 * light theme's text colour too.
 */
export const DARK_THEME_SLICE_TEXT = "#1b2430";
/**
 * How far a chart colour stands from the dark theme's slice text: 4.5:1 makes a label on a slice
 * readable (WCAG 1.4.3), and leaves the colour at least 3:1 from the dark page and surfaces
 * (1.4.11), whose colours are darker than that text.
 */
const DARK_CHART_CONTRAST = 4.5;

const hex = (channels: number[]) => `#${channels.map((c) => c.toString(16).padStart(2, "0")).join("")}`;

/**
 * A chart colour for the dark theme: the firm's colour as it is when it is light enough, else
 * mixed with white in steps of 5% until it stands 4.5:1 from the slice text (so at least 3:1 from
 * the dark page). Its hue stays, so a series keeps its colour's name in both themes. A value that
 * is not '#rgb' or '#rrggbb' is answered as it is.
 */
export function darkChartColour(colour: string): string {
  // the root loader asks for the site's colours on every page: each is worked out once
  let dark = darkChartColours.get(colour);
  if (dark === undefined) {
    dark = darkChartColourOf(colour);
    // the site's handful of colours; a bound in case settings change often
    if (darkChartColours.size >= 256) darkChartColours.clear();
    darkChartColours.set(colour, dark);
  }
  return dark;
}

const darkChartColours = new Map<string, string>();

function darkChartColourOf(colour: string): string {
  const channels = colourChannels(colour);
  if (!channels) return colour;
  for (let white = 0; white <= 100; white += 5) {
    const mixed = channels.map((c) => Math.round(c + ((255 - c) * white) / 100));
    const candidate = hex(mixed);
    if (contrastRatio(candidate, DARK_THEME_SLICE_TEXT) >= DARK_CHART_CONTRAST) return candidate;
  }
  return "#ffffff";
}
