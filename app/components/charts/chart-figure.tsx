// A chart as a <figure>: the server's SVG, a caption, a legend and the data as a table (design:
// "every chart is a <figure> with a caption and a data-table alternative"). Once JavaScript runs and
// the user turns to the chart, the interactive version (tooltips) is loaded and replaces
// the SVG; until then, and whenever that fails, the SVG stays (decision 072). Pointing at the
// chart or moving the keyboard focus into its data table counts as turning to it. On a document
// request the loader data names the SVG the page holds rather than carrying it again (chart-markup.tsx,
// decision 156).

import { Component, lazy, Suspense, useState, type ReactNode } from "react";
import { useHydrated } from "~/components/hydrated";
import chartStylesHref from "./charts.css";
import type { ChartLegendItem, ChartTable } from "./chart-data";
import { useChartMarkup } from "./chart-markup";
import { LegendSwatch } from "./legend-swatch";
import type { LineChartInput } from "./line-chart";
import { TableRegion } from "~/components/table-region";
import type { ChartSvg } from "~/lib/chart-svg";

/** The charts' stylesheet, for the `links` of a route that shows a chart. */
export const chartStyles = chartStylesHref;

export type ChartFigureProps = {
  id: string;
  caption: ReactNode;
  /** The chart's SVG markup, rendered on the server (`renderLineChartSvg`), or a reference to it in the page. */
  svg: ChartSvg;
  /** The same chart drawn for small screens, shown instead below 576px (spec 001 §9). */
  narrowSvg?: ChartSvg;
  legend?: ChartLegendItem[];
  /** How the legend draws a series: a line (line charts), or a block (a pie's slices, columns). */
  legendShape?: "line" | "block";
  table: ChartTable;
  /** The label that opens the table, e.g. "Show the chart's data as a table" (translated by the caller). */
  tableSummary: string;
  /** The chart's data: when given, the interactive chart is loaded on the user's first interaction. */
  interactive?: LineChartInput;
};

// A separate chunk, fetched only when rendered: nivo stays out of every page's first load.
const InteractiveLineChart = lazy(() => import("./interactive-line-chart.client"));

class KeepStaticOnError extends Component<{ fallback: ReactNode; children: ReactNode }, { failed: boolean }> {
  state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  render() {
    return this.state.failed ? this.props.fallback : this.props.children;
  }
}

function ChartLegend({ legend, shape }: { legend: ChartLegendItem[]; shape: "line" | "block" }) {
  return (
    <ul className="chart-legend">
      {legend.map((item, i) => (
        <li key={`${i}-${item.label}`} className="chart-legend__item">
          <LegendSwatch colour={item.colour} colourNumber={item.colourNumber} shape={shape} />
          {item.label}
        </li>
      ))}
    </ul>
  );
}

/** The chart's data-table alternative. */
function DataTable({ id, table }: { id: string; table: ChartTable }) {
  return (
    <>
      {/* its own scrolling region, named by the table's caption (WCAG 1.4.10; ids unique, decision 117) */}
      <TableRegion captionId={`${id}-table-caption`}>
        <table className="chart-figure__table">
          <caption id={`${id}-table-caption`}>{table.caption}</caption>
          <thead>
            <tr>
              {table.columns.map((column, i) => (
                <th key={`${i}-${column}`} scope="col">
                  {column}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {table.rows.map((row, r) => (
              <tr key={`${r}-${row.header}`}>
                <th scope="row">{row.header}</th>
                {row.cells.map((cell, i) => (
                  <td key={i} className="numeric">
                    {cell}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </TableRegion>
    </>
  );
}

export function ChartFigure({
  id,
  caption,
  svg,
  narrowSvg,
  legend,
  legendShape = "line",
  table,
  tableSummary,
  interactive,
}: ChartFigureProps) {
  const hydrated = useHydrated();
  const [engaged, setEngaged] = useState(false);
  const canEnhance = Boolean(interactive) && hydrated;
  const engage = canEnhance && !engaged ? () => setEngaged(true) : undefined;
  const wide = useChartMarkup(svg);
  const narrow = useChartMarkup(narrowSvg);

  const staticChart = (
    <>
      <div
        className={narrowSvg ? "chart-figure__svg chart-figure__svg--wide" : "chart-figure__svg"}
        data-chart-markup={wide.key}
        dangerouslySetInnerHTML={{ __html: wide.markup }}
      />
      {narrowSvg ? (
        <div
          className="chart-figure__svg chart-figure__svg--narrow"
          data-chart-markup={narrow.key}
          dangerouslySetInnerHTML={{ __html: narrow.markup }}
        />
      ) : null}
    </>
  );

  return (
    <figure id={id} className="chart-figure">
      <figcaption id={`${id}-caption`} className="chart-figure__caption">
        {caption}
      </figcaption>
      <div className="chart-figure__chart" onPointerEnter={engage}>
        {interactive && canEnhance && engaged ? (
          <KeepStaticOnError fallback={staticChart}>
            <Suspense fallback={staticChart}>
              <InteractiveLineChart input={interactive} />
            </Suspense>
          </KeepStaticOnError>
        ) : (
          staticChart
        )}
      </div>
      {legend?.length ? <ChartLegend legend={legend} shape={legendShape} /> : null}
      <details className="chart-figure__data" onFocus={engage}>
        <summary>{tableSummary}</summary>
        <DataTable id={id} table={table} />
      </details>
    </figure>
  );
}
