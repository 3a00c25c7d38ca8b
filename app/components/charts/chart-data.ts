// What every chart gives its figure besides the picture: the data table that carries the same
// figures for screen readers and for anyone who prefers numbers, and the legend.

export type ChartTable = {
  caption: string;
  /** Column headings; the first heads the row headings (e.g. 'Date'). */
  columns: string[];
  rows: Array<{ header: string; cells: string[] }>;
};

export type ChartLegendItem = { label: string; colour: string };
