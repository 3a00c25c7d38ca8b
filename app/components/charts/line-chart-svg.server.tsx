// The line chart drawn on the server as SVG markup, so it shows without JavaScript and nivo never
// reaches the browser's first load (design: "Charts"; decision 072). Loaders take everything a
// chart needs from here: a .server module is left out of the browser build, so importing these
// helpers adds nothing to a page's JavaScript.

import { Line } from "@nivo/line";
import { renderToStaticMarkup } from "react-dom/server";
import type { ChartFigureProps } from "./chart-figure";
import {
  LINE_CHART_SIZE,
  lineChartLegend,
  lineChartProps,
  lineChartTable,
  NARROW_LINE_CHART_SIZE,
  chartPalette,
  type LineChartInput,
} from "./line-chart";
import { responsiveSvg, roundGeometry, seriesColourAttributes, styleToPresentationAttributes } from "./svg-markup";
import { chartMarkups } from "./chart-markup-cache.server";

export { LINE_CHART_SIZE, lineChartLegend, lineChartTable, NARROW_LINE_CHART_SIZE, type LineChartInput };

/**
 * The chart as an `<svg role="img">` named by `input.title`, with a viewBox of `width` × `height`
 * (default 720 × 400, spec 001 §9) and width 100%, without inline styles. Not interactive. The
 * same input gives the markup drawn before (decision 124).
 */
export function renderLineChartSvg(input: LineChartInput): string {
  return chartMarkups.markup("line", input, drawLineChartSvg);
}

function drawLineChartSvg(input: LineChartInput): string {
  const width = input.width ?? LINE_CHART_SIZE.width;
  const height = input.height ?? LINE_CHART_SIZE.height;
  const props = lineChartProps(input, width, height);
  const markup = renderToStaticMarkup(<Line {...props} isInteractive={false} renderWrapper={false} />);
  const marked = seriesColourAttributes(styleToPresentationAttributes(markup), chartPalette(input));
  return responsiveSvg(roundGeometry(marked), input.title);
}

/**
 * What `ChartFigure` needs from the loader: the chart at `input`'s size (default 720 × 400) and at
 * 360 × 300 for small screens, its legend, its data as a table and, for the interactive version,
 * its data (`interactive: false` leaves it out).
 */
export function lineChartFigure(
  input: LineChartInput,
  text: { tableCaption: string; dateHeading: string },
  options: { interactive?: boolean } = {},
): Pick<ChartFigureProps, "legend" | "table" | "interactive"> & { svg: string; narrowSvg: string } {
  return {
    svg: renderLineChartSvg(input),
    narrowSvg: renderLineChartSvg({ ...input, ...NARROW_LINE_CHART_SIZE }),
    legend: lineChartLegend(input),
    table: lineChartTable(input, { caption: text.tableCaption, dateHeading: text.dateHeading }),
    ...(options.interactive === false ? {} : { interactive: input }),
  };
}
