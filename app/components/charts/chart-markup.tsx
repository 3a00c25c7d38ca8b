// A chart's SVG markup from what the loader data says of it (docs/decisions/156): the markup
// itself, or on a document request a reference to the markup the page already holds. On the server
// the page's render is given the request's markup (`ChartMarkupProvider`, app/entry.server.tsx). In
// the browser a reference is read from the element the server rendered it into (`data-chart-markup`),
// while it hydrates, and kept: a re-render, or the chart shown again after its element has left the
// page (the interactive chart's fallback), finds the same markup.

import { createContext, useContext, type ReactNode } from "react";
import type { ChartSvg } from "~/lib/chart-svg";

const PageChartMarkup = createContext<ReadonlyMap<string, string> | null>(null);

/** The request's charts' markup, by key, for the page's render on the server. */
export function ChartMarkupProvider({
  markup,
  children,
}: {
  markup: ReadonlyMap<string, string>;
  children: ReactNode;
}) {
  return <PageChartMarkup.Provider value={markup}>{children}</PageChartMarkup.Provider>;
}

/** The markup the browser has read from the page it was served, by key. */
const readFromPage = new Map<string, string>();

function markupInPage(key: string): string {
  if (!readFromPage.has(key) && typeof document !== "undefined") {
    for (const element of document.querySelectorAll<HTMLElement>("[data-chart-markup]")) {
      const found = element.dataset.chartMarkup;
      if (found && !readFromPage.has(found)) readFromPage.set(found, element.innerHTML);
    }
  }
  return readFromPage.get(key) ?? "";
}

/** The markup of `svg`, and the key the element that shows it names (a reference's, else none). */
export function useChartMarkup(svg: ChartSvg | undefined): { markup: string; key: string | undefined } {
  const onServer = useContext(PageChartMarkup);
  if (svg === undefined) return { markup: "", key: undefined };
  if (typeof svg === "string") return { markup: svg, key: undefined };
  const key = svg.chartMarkup;
  return { markup: onServer ? (onServer.get(key) ?? "") : markupInPage(key), key };
}
