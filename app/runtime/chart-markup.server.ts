import type { ChartSvg } from "~/lib/chart-svg";
import { chartMarkupKey } from "~/lib/chart-svg";
import { currentRequestContext } from "./request-context.server";

// The charts' SVG markup is sent once (issue 38, docs/decisions/156). A loader gives each chart's
// markup through `chartSvgOfPage`: on a document request the markup is kept in the request's context
// and the loader data holds only a reference, which the page's render (app/entry.server.tsx, its
// `ChartMarkupProvider`) turns back into the markup; the browser takes it from the page
// (app/components/charts/chart-markup.tsx). On any other request (a data request, or a loader
// called outside a request) the loader data holds the markup itself.

/** `markup` as the loader data carries it: a reference on a document request, else the markup. */
export function chartSvgOfPage(markup: string): ChartSvg {
  const context = currentRequestContext();
  if (!context?.documentRequest) return markup;
  const key = chartMarkupKey(context.chartMarkup.size + 1);
  context.chartMarkup.set(key, markup);
  return { chartMarkup: key };
}

/** The charts' markup the request's loaders kept for its page, by key; empty outside a document request. */
export function pageChartMarkup(): ReadonlyMap<string, string> {
  return currentRequestContext()?.chartMarkup ?? new Map<string, string>();
}
