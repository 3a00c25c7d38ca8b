// A chart's SVG markup as a page's loader data carries it (issue 38, docs/decisions/156). On a
// document request the page's HTML already holds the markup, so the loader data that goes into
// the page's `__remixContext` holds only a reference to it; on a client-side navigation the data
// request's answer carries the markup itself, which the browser then renders. Pure: shared by the
// server and the browser.

/** A chart's markup that the page's HTML holds, by its key (a document request's loader data). */
export type ChartMarkupRef = { chartMarkup: string };

/** A chart's SVG in loader data: the markup itself, or on a document request a reference to it. */
export type ChartSvg = string | ChartMarkupRef;

/** The key of a document request's `count`-th chart markup (from 1). */
export const chartMarkupKey = (count: number) => `chart-${count}`;
