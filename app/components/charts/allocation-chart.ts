// The allocation charts' data, legend, table and layout rules: a pie (donut) or a column chart of
// the shares of a whole, e.g. a portfolio by asset class or by sector. Nothing here imports nivo,
// so this module is safe in the browser; the SVG is drawn by allocation-chart-svg.server.tsx.

import { colourNumber, type ChartLegendItem, type ChartTable } from "./chart-data";
import { chartPalette, valueFormatter } from "./line-chart";
import { colourChannels, DARK_THEME_SLICE_TEXT, relativeLuminance } from "~/lib/theme";

export type AllocationSlice = {
  id: string;
  label: string;
  /** The amount, in `currency`. */
  value: number;
  /** What the user reads, e.g. '42%'. */
  percentLabel: string;
};

export type AllocationChartInput = {
  kind: "pie" | "column";
  slices: AllocationSlice[];
  /** One colour per slice, in order (the site's chart colours); repeated when there are more slices. */
  colours: string[];
  /** The chart's accessible name. */
  title: string;
  locale: string;
  currency: string;
  /** The SVG's coordinate size; it scales to the width of its container. */
  width?: number;
  height?: number;
};

/** spec: the pie is at most 600 wide. */
export const PIE_CHART_SIZE = { width: 600, height: 360 } as const;
export const COLUMN_CHART_SIZE = { width: 720, height: 360 } as const;

/** The size a chart of `input` is drawn at: its own, else its kind's default. */
export function allocationChartSize(input: Pick<AllocationChartInput, "kind" | "width" | "height">): {
  width: number;
  height: number;
} {
  const size = input.kind === "pie" ? PIE_CHART_SIZE : COLUMN_CHART_SIZE;
  return { width: input.width ?? size.width, height: input.height ?? size.height };
}

/** The colour of each slice, in order; the colours repeat when there are more slices. */
export function sliceColours(input: Pick<AllocationChartInput, "slices" | "colours">): string[] {
  const colours = chartPalette(input);
  return input.slices.map((_, i) => colours[i % colours.length]!);
}

/**
 * Each slice's share of the whole, from 0 to 1: its value over the sum of the values. A value that
 * is not a finite number counts as 0; when the sum is not above 0 there is no whole, and every
 * share is 0 (the chart then draws nothing but its title).
 */
export function allocationShares(input: Pick<AllocationChartInput, "slices">): number[] {
  const values = input.slices.map((s) => (Number.isFinite(s.value) ? s.value : 0));
  const total = values.reduce((sum, v) => sum + v, 0);
  return values.map((v) => (total > 0 ? v / total : 0));
}

/** Whether the chart has anything to draw: some slice with a value above 0 and a sum above 0. */
export function hasAllocation(input: Pick<AllocationChartInput, "slices">): boolean {
  return allocationShares(input).some((share) => share > 0);
}

/** The legend: each slice's label and colour, in order (slices of 0 included, as in the table). */
export function allocationLegend(input: Pick<AllocationChartInput, "slices" | "colours">): ChartLegendItem[] {
  const colours = sliceColours(input);
  const palette = chartPalette(input);
  return input.slices.map((s, i) => ({
    label: s.label,
    colour: colours[i]!,
    colourNumber: colourNumber(palette, colours[i]!),
  }));
}

/**
 * The chart's data as a table: one row per slice, headed by its label, with its amount in the
 * currency without decimals and its `percentLabel`. A value that is not a number leaves its cell empty.
 */
export function allocationTable(
  input: Pick<AllocationChartInput, "slices" | "locale" | "currency">,
  text: { caption: string; categoryHeading: string; amountHeading: string; percentHeading: string },
): ChartTable {
  const format = valueFormatter({ yFormat: "money", currency: input.currency, locale: input.locale }, 0);
  return {
    caption: text.caption,
    columns: [text.categoryHeading, text.amountHeading, text.percentHeading],
    rows: input.slices.map((s) => ({
      header: s.label,
      cells: [Number.isFinite(s.value) ? format(s.value) : "", s.percentLabel],
    })),
  };
}

// ---------- layout helpers (used by the server's SVG) ----------

/** The charts' text size, and an average character's width at that size for sizing labels. */
export const CHART_FONT_SIZE = 12;
export const CHART_CHAR_WIDTH = 7;

/** `label` cut to at most `maxChars` characters, ending in '…' when cut. */
export function truncateLabel(label: string, maxChars: number): string {
  const characters = [...label.trim()];
  if (characters.length <= maxChars) return characters.join("");
  return `${characters
    .slice(0, Math.max(1, maxChars - 1))
    .join("")
    .trimEnd()}…`;
}

/**
 * `label` on lines of at most `maxChars` characters, broken between words (a word longer than a
 * line is broken inside). Past `maxLines` the last line ends in '…' and `cut` is true: the legend
 * and the table still have the name whole (issue 25 item 15, decision 117).
 */
export function wrapLabel(label: string, maxChars: number, maxLines: number): { lines: string[]; cut: boolean } {
  const width = Math.max(1, maxChars);
  const lines: string[] = [];
  let current: string[] = [];
  for (const word of label.trim().split(/\s+/).filter(Boolean)) {
    let rest = [...word];
    if (current.length && current.length + 1 + rest.length <= width) {
      current.push(" ", ...rest);
      continue;
    }
    if (current.length) lines.push(current.join(""));
    while (rest.length > width) {
      lines.push(rest.slice(0, width).join(""));
      rest = rest.slice(width);
    }
    current = rest;
  }
  if (current.length) lines.push(current.join(""));
  const most = Math.max(1, maxLines);
  if (lines.length <= most) return { lines, cut: false };
  const kept = lines.slice(0, most - 1);
  kept.push(truncateLabel(lines.slice(most - 1).join(" "), width));
  return { lines: kept, cut: true };
}

const LIGHT_TEXT = "#ffffff";
/** The page's text colour (--colour-text), also the dark theme's text on slices (docs/decisions/203). */
const DARK_TEXT = DARK_THEME_SLICE_TEXT;

/** The text colour, white or the page's dark text, with the more contrast on `background` ('#rgb' or '#rrggbb'). */
export function labelColourOn(background: string): string {
  const rgb = colourChannels(background);
  if (!rgb) return DARK_TEXT;
  const l = relativeLuminance(rgb);
  const onWhite = 1.05 / (l + 0.05);
  const onDark = (l + 0.05) / (relativeLuminance(colourChannels(DARK_TEXT)!) + 0.05);
  return onWhite >= onDark ? LIGHT_TEXT : DARK_TEXT;
}
