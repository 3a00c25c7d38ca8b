// The income chart (issue 41, docs/decisions/199-income-received.md): one column per month or tax
// year of income received, drawn on the server as SVG markup like the other charts, so that it shows
// without JavaScript and nivo never reaches the browser. It has no interactive version: the figure's
// data table carries every amount.

import { Bar, type BarSvgProps } from "@nivo/bar";
import { renderToStaticMarkup } from "react-dom/server";
import { CHART_CHAR_WIDTH, CHART_FONT_SIZE } from "./allocation-chart";
import { chartMarkups } from "./chart-markup-cache.server";
import { niceTicks, valueFormatter } from "./line-chart";
import { hexColours, responsiveSvg, roundGeometry, styleToPresentationAttributes } from "./svg-markup";

export type IncomeChartInput = {
  /** Oldest first: each column's short label under it and its amount in `currency` (units). */
  bars: Array<{ key: string; label: string; value: number }>;
  colour: string;
  currency: string;
  locale: string;
  /** The chart's accessible name. */
  title: string;
  width: number;
  height: number;
};

type Datum = { key: string; label: string; value: number };

const THEME = {
  background: "transparent",
  text: { fontFamily: "inherit", fontSize: CHART_FONT_SIZE, fill: "currentColor" },
  axis: {
    domain: { line: { stroke: "currentColor", strokeWidth: 1 } },
    ticks: { line: { stroke: "currentColor", strokeWidth: 1 }, text: { fill: "currentColor" } },
  },
  grid: { line: { stroke: "#d5dbe3", strokeWidth: 1 } },
} satisfies BarSvgProps<Datum>["theme"];

/** The chart as an `<svg role="img">` named by its title, width 100% of its container; the same input gives the markup drawn before. */
export function renderIncomeChartSvg(input: IncomeChartInput): string {
  return chartMarkups.markup("income", input, drawIncomeChartSvg);
}

function drawIncomeChartSvg(input: IncomeChartInput): string {
  const { width, height, bars } = input;
  const values = bars.map((b) => b.value);
  const top = 16;
  const longest = Math.max(1, ...bars.map((b) => [...b.label].length));
  const band = (width - 80) / Math.max(1, bars.length);
  // labels level when they fit their column, else turned 45°
  const level = longest * CHART_CHAR_WIDTH <= band * 0.95;
  const bottom = level ? 36 : Math.ceil(longest * CHART_CHAR_WIDTH * Math.SQRT1_2) + 24;
  const ticks = niceTicks(
    0,
    Math.max(0, ...values),
    Math.max(2, Math.min(6, Math.round((height - top - bottom) / 50))),
  );
  const compact = Math.max(...ticks) >= 10_000;
  const format = valueFormatter(
    { yFormat: "money", currency: input.currency, locale: input.locale },
    compact ? 1 : 0,
    compact,
  );
  const left = Math.ceil(Math.max(...ticks.map((t) => [...format(t)].length)) * CHART_CHAR_WIDTH) + 16;
  const labels = new Map(bars.map((b) => [b.key, b.label]));
  const markup = renderToStaticMarkup(
    <Bar<Datum>
      data={bars.map((b) => ({ key: b.key, label: b.label, value: Number.isFinite(b.value) ? b.value : 0 }))}
      keys={["value"]}
      indexBy="key"
      width={width}
      height={height}
      margin={{ top, right: 16, bottom, left }}
      layout="vertical"
      padding={0.25}
      valueScale={{ type: "linear", min: ticks[0]!, max: ticks[ticks.length - 1]!, nice: false }}
      indexScale={{ type: "band", round: false }}
      colors={[input.colour]}
      borderRadius={2}
      enableGridY
      gridYValues={ticks}
      axisLeft={{ tickValues: ticks, tickSize: 5, tickPadding: 6, format: (value: number) => format(value) }}
      axisBottom={{
        tickSize: 5,
        tickPadding: 6,
        tickRotation: level ? 0 : -45,
        format: (key: string) => labels.get(key) ?? key,
      }}
      enableLabel={false}
      layers={["grid", "axes", "bars"]}
      theme={THEME}
      isInteractive={false}
      animate={false}
      renderWrapper={false}
      role="img"
      ariaLabel={input.title}
    />,
  );
  const classed = markup.replace(/^<svg /, '<svg class="income-chart" ');
  return responsiveSvg(roundGeometry(hexColours(styleToPresentationAttributes(classed))), input.title);
}
