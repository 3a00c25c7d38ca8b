// What every chart gives its figure besides the picture: the data table that carries the same
// figures for screen readers and for anyone who prefers numbers, and the legend. Nothing here
// imports nivo: the browser may load it.

export type ChartTable = {
  caption: string;
  /** Column headings; the first heads the row headings (e.g. 'Date'). */
  columns: string[];
  rows: Array<{ header: string; cells: string[] }>;
};

export type ChartLegendItem = {
  label: string;
  colour: string;
  /** The colour's number in the chart's colours, from 1 (`colourNumber`): its theme's colour and dash pattern. */
  colourNumber?: number;
};

/**
 * A colour written one way: '#1D4F91', '#abc' and an opaque 'rgb(29, 79, 145)' or
 * 'rgba(29, 79, 145, 1)' (as nivo writes a colour it animates) → '#1d4f91', '#aabbcc';
 * anything else lower-cased.
 */
export function sameColour(colour: string): string {
  const value = colour.trim().toLowerCase();
  const short = /^#([0-9a-f])([0-9a-f])([0-9a-f])$/.exec(value);
  if (short) return `#${short[1]}${short[1]}${short[2]}${short[2]}${short[3]}${short[3]}`;
  const rgb = /^rgba?\(\s*(\d{1,3})\s*,\s*(\d{1,3})\s*,\s*(\d{1,3})\s*(?:,\s*1(?:\.0*)?\s*)?\)$/.exec(value);
  if (!rgb || rgb.slice(1, 4).some((c) => Number(c) > 255)) return value;
  return `#${rgb
    .slice(1, 4)
    .map((c) => Number(c).toString(16).padStart(2, "0"))
    .join("")}`;
}

/**
 * The number of a colour in the chart's colours, from 1, the first place when a colour is given
 * twice; 0 when it is not one. The SVG's series (`seriesColourAttributes`), the legend and the
 * tooltip name a colour by it, and app.css gives each number its theme's colour (`--chart-series-N`)
 * and dash pattern (docs/decisions/203).
 */
export function colourNumber(colours: string[], colour: string): number {
  return colours.map(sameColour).indexOf(sameColour(colour)) + 1;
}
