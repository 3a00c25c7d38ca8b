// Money and performance figures as the portfolio pages show them (the home's overview and rows,
// the analysis page's tiles and table): a loss is marked, over a year the yearly figure follows, and
// a selection that began inside the range says since when (decision 109).
import { useTranslation } from "~/components/translation";
import type { Figure, Performance } from "~/lib/performance";
import overviewTilesStylesHref from "./overview-tiles.css";

/** The overview tiles' stylesheet, for the `links` of a route that shows them. */
export const overviewTilesStyles = overviewTilesStylesHref;

export function FigureText({ figure }: { figure: Figure }) {
  return <span className={figure.negative ? "figure figure--negative" : "figure"}>{figure.text}</span>;
}

export function PerformanceText({ performance }: { performance: Performance | null }) {
  const { t } = useTranslation("clients");
  if (!performance) return <span className="figure">{t("figures.notAvailable")}</span>;
  return (
    <>
      <FigureText figure={performance.period} />
      {performance.annual ? (
        <span className="figure__annual"> {t("figures.annualised", { value: performance.annual.text })}</span>
      ) : null}
      {performance.since ? (
        <span className="figure__since"> {t("figures.since", { date: performance.since })}</span>
      ) : null}
    </>
  );
}
