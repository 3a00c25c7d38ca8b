// The allocation charts (a donut or columns of the shares of a whole) drawn on the server as SVG
// markup, like the line chart (line-chart-svg.server.tsx): they show without JavaScript and nivo
// never reaches the browser. They have no interactive version: the legend and the data table carry
// every figure.

import type { AxisTickProps } from "@nivo/axes";
import { Bar, type BarCustomLayerProps, type BarSvgProps } from "@nivo/bar";
import { Pie, type PieSvgProps } from "@nivo/pie";
import { renderToStaticMarkup } from "react-dom/server";
import {
  allocationChartSize,
  allocationLegend,
  allocationShares,
  allocationTable,
  CHART_CHAR_WIDTH,
  CHART_FONT_SIZE,
  hasAllocation,
  labelColourOn,
  sliceColours,
  wrapLabel,
  type AllocationChartInput,
} from "./allocation-chart";
import type { ChartFigureProps } from "./chart-figure";
import { CHART_GRID_COLOUR, chartPalette, niceTicks } from "./line-chart";
import {
  hexColours,
  responsiveSvg,
  roundGeometry,
  seriesColourAttributes,
  styleToPresentationAttributes,
} from "./svg-markup";
import { numberFormat } from "~/lib/format";
import { chartMarkups } from "./chart-markup-cache.server";

export { allocationLegend, allocationTable, type AllocationChartInput };

/** A slice as both charts draw it: `id` is its position, so slices sharing an id stay apart. */
type Datum = { id: string; label: string; value: number; share: number; colour: string; percentLabel: string };
type ColumnDatum = Datum & { points: number };

// A slice's percentLabel is written on it from 5% of the whole.
const MIN_LABELLED_SHARE = 0.05;

const THEME = {
  background: "transparent",
  // The page's font and text colour: the SVG is inline in the page.
  text: { fontFamily: "inherit", fontSize: CHART_FONT_SIZE, fill: "currentColor" },
  labels: { text: { fontFamily: "inherit", fontSize: CHART_FONT_SIZE, fontWeight: 600 } },
  axis: {
    domain: { line: { stroke: "currentColor", strokeWidth: 1 } },
    ticks: { line: { stroke: "currentColor", strokeWidth: 1 }, text: { fill: "currentColor" } },
  },
  grid: { line: { stroke: CHART_GRID_COLOUR, strokeWidth: 1 } },
} satisfies PieSvgProps<Datum>["theme"] & BarSvgProps<ColumnDatum>["theme"];

function chartData(input: AllocationChartInput): Datum[] {
  const shares = allocationShares(input);
  const colours = sliceColours(input);
  return input.slices.map((s, i) => ({
    id: String(i),
    label: s.label,
    value: Number.isFinite(s.value) ? s.value : 0,
    share: shares[i]!,
    colour: colours[i]!,
    percentLabel: s.percentLabel,
  }));
}

const escapeAttribute = (text: string) =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/**
 * The root `<svg>` named by `title` (aria-label, as nivo's line and bar charts do themselves) and
 * classed by its kind, for charts.css (the pie is at most 600 wide).
 */
function rootAttributes(markup: string, title: string, kind: AllocationChartInput["kind"]): string {
  const named = /^<svg [^>]*aria-label="/.test(markup) ? "" : ` aria-label="${escapeAttribute(title)}"`;
  return markup.replace(/^<svg /, `<svg class="allocation-chart allocation-chart--${kind}"${named} `);
}

function finish(markup: string, input: AllocationChartInput): string {
  const rewritten = roundGeometry(
    seriesColourAttributes(
      hexColours(styleToPresentationAttributes(rootAttributes(markup, input.title, input.kind))),
      chartPalette(input),
    ),
  );
  return responsiveSvg(rewritten, input.title);
}

/** A donut of the slices above 0, each in its colour, its percentLabel written on it from 5%. */
function pieMarkup(data: Datum[], width: number, height: number): string {
  const drawn = data.filter((d) => d.value > 0);
  return renderToStaticMarkup(
    <Pie<Datum>
      data={drawn}
      width={width}
      height={height}
      margin={{ top: 12, right: 12, bottom: 12, left: 12 }}
      id="id"
      value="value"
      innerRadius={0.5}
      padAngle={0.6}
      cornerRadius={2}
      colors={(d) => d.data.colour}
      borderWidth={0}
      enableArcLinkLabels={false}
      arcLabel={(d) => d.data.percentLabel}
      // The angle of 5% of the circle, less a hair so exactly 5% is labelled.
      arcLabelsSkipAngle={360 * MIN_LABELLED_SHARE - 0.001}
      arcLabelsRadiusOffset={0.5}
      arcLabelsTextColor={(d) => labelColourOn(d.data.colour)}
      layers={["arcs", "arcLabels"]}
      theme={THEME}
      isInteractive={false}
      animate={false}
      renderWrapper={false}
      role="img"
    />,
  );
}

/** Percent-point ticks (0 to 100) written in the locale with the fewest decimals that show each exactly. */
function percentTickFormat(locale: string, ticks: number[]): (value: number) => string {
  const decimals =
    [0, 1, 2].find((d) => ticks.every((t) => Math.abs(Math.round(t * 10 ** d) / 10 ** d - t) < 1e-9)) ?? 2;
  const format = numberFormat(locale, {
    style: "percent",
    minimumFractionDigits: decimals,
    maximumFractionDigits: decimals,
  });
  return (value) => format.format(value / 100);
}

const LABEL_OFFSET = 10;

/** Each column's percentLabel, over it, or under it when the share is negative. */
function ColumnLabels({ bars }: BarCustomLayerProps<ColumnDatum>) {
  return (
    <g>
      {bars.map((bar) => {
        const negative = (bar.data.value ?? 0) < 0;
        return (
          <text
            key={bar.key}
            x={bar.x + bar.width / 2}
            y={negative ? bar.y + bar.height + LABEL_OFFSET : bar.y - LABEL_OFFSET}
            textAnchor="middle"
            dominantBaseline="central"
            fontFamily="inherit"
            fontSize={CHART_FONT_SIZE}
            fontWeight={600}
            fill="currentColor"
          >
            {bar.data.data.percentLabel}
          </text>
        );
      })}
    </g>
  );
}

/** The distance between the lines of a wrapped category name, in ems and in px. */
const LINE_EMS = 1.2;
const LINE_HEIGHT = CHART_FONT_SIZE * LINE_EMS;
/** A category name turned under its column is wrapped at this many characters a line. */
const TURNED_LINE_CHARS = 18;
const MOST_LINES = 3;

/**
 * A category's tick: its line and its name, on several lines (`<tspan>`s) when wrapped, drawn as
 * nivo draws a tick (level, or turned by `rotate`).
 */
function wrappedTick(lines: Map<string, string[]>) {
  return function WrappedTick({ value, x, y, lineX, lineY, textX, textY, textAnchor, rotate }: AxisTickProps<string>) {
    const words = lines.get(value) ?? [];
    // turned names grow away from the axis from their first line; level ones hang under the tick
    return (
      <g transform={`translate(${x},${y})`}>
        <line x1={0} x2={lineX} y1={0} y2={lineY} stroke="currentColor" strokeWidth={1} />
        <text
          dominantBaseline={rotate ? "central" : "hanging"}
          textAnchor={textAnchor as "start" | "middle" | "end"}
          transform={`translate(${textX},${rotate ? textY : textY - CHART_FONT_SIZE / 2}) rotate(${rotate ?? 0})`}
          fontFamily="inherit"
          fontSize={CHART_FONT_SIZE}
          fill="currentColor"
        >
          {words.length > 1
            ? words.map((line, i) => (
                <tspan key={i} x="0" dy={i === 0 ? "0" : `${LINE_EMS}em`}>
                  {line}
                </tspan>
              ))
            : words[0]}
        </text>
      </g>
    );
  };
}

/**
 * Category labels: level, on up to three lines, when every name's lines fit under its column;
 * else turned 45° (90° when the columns are too narrow for that), on as many lines as the space
 * between two columns holds. Gives the lines per slice, the turn, and the room they take below.
 */
function categoryLabels(data: ColumnDatum[], width: number, padding: number) {
  const roughInner = width - 60;
  const band = roughInner / Math.max(1, data.length);
  const levelChars = Math.floor((band * (1 - padding / 2)) / CHART_CHAR_WIDTH);
  const levelLines = data.map((d) => wrapLabel(d.label, levelChars, MOST_LINES));
  const longestWord = Math.max(
    ...data.map((d) =>
      Math.max(
        0,
        ...d.label
          .trim()
          .split(/\s+/)
          .map((word) => [...word].length),
      ),
    ),
  );
  const level = longestWord <= levelChars && levelLines.every((w) => !w.cut);
  const rotation = level ? 0 : band >= 2 * CHART_FONT_SIZE ? -45 : -90;
  const across = rotation === -45 ? band * Math.SQRT1_2 : band;
  const turnedLines = Math.max(1, Math.min(MOST_LINES, Math.floor(across / LINE_HEIGHT)));
  const wrapped = level ? levelLines : data.map((d) => wrapLabel(d.label, TURNED_LINE_CHARS, turnedLines));
  const labels = new Map(data.map((d, i) => [d.id, wrapped[i]!.lines]));
  const labelLength = Math.max(...wrapped.flatMap((w) => w.lines.map((l) => [...l].length))) * CHART_CHAR_WIDTH;
  const lineCount = Math.max(...wrapped.map((w) => w.lines.length));
  const tickSpace = 5 + 6;
  const radians = (rotation * Math.PI) / 180;
  const bottom =
    tickSpace +
    4 +
    (rotation === 0
      ? lineCount * LINE_HEIGHT + 4
      : Math.ceil(
          labelLength * Math.abs(Math.sin(radians)) + (lineCount - 1) * LINE_HEIGHT * Math.abs(Math.cos(radians)),
        ) + CHART_FONT_SIZE);

  return { labels, rotation, labelLength, band, bottom };
}

/**
 * One column per slice in its colour, its height the slice's share of the whole in percent, its
 * percentLabel above it. Category names too long for their columns wrap onto lines under them
 * (level while each line fits the column, else turned); only where the columns are too narrow
 * for the lines are they cut with '…' (the legend and the table have them whole; issue 25 item 15).
 */
function columnMarkup(slices: Datum[], width: number, height: number, locale: string, title: string): string {
  // nivo charts the share in percent points.
  const data: ColumnDatum[] = slices.map((d) => ({ ...d, points: d.share * 100 }));
  const points = data.map((d) => d.points);
  const low = Math.min(0, ...points);
  const high = Math.max(0, ...points);
  const top = 24;
  const padding = 0.25;

  const { labels, rotation, labelLength, band, bottom } = categoryLabels(data, width, padding);

  const innerHeight = height - top - bottom;
  const ticks = niceTicks(low, high, Math.max(2, Math.min(8, Math.round(innerHeight / 50))));
  // A negative column's label goes under it: keep room for it above the category labels.
  const step = ticks.length > 1 ? ticks[1]! - ticks[0]! : 1;
  const pixelsPerPoint = innerHeight / (ticks[ticks.length - 1]! - ticks[0]!);
  if (low < 0 && (low - ticks[0]!) * pixelsPerPoint < LABEL_OFFSET + CHART_FONT_SIZE)
    ticks.unshift(Number((ticks[0]! - step).toPrecision(12)));
  const formatY = percentTickFormat(locale, ticks);
  const yAxisWidth = Math.ceil(Math.max(...ticks.map((t) => formatY(t).length)) * CHART_CHAR_WIDTH) + 16;
  // A label turned 45° reaches left of its column's middle: keep the first one in view.
  const firstReach = rotation === -45 ? Math.ceil(labelLength * Math.SQRT1_2 - band / 2) + 4 : 0;
  const left = Math.max(yAxisWidth, firstReach);
  const right = 16;
  const innerWidth = width - left - right;
  const columnWidth = (innerWidth / Math.max(1, data.length)) * (1 - padding);
  const widestValue = Math.max(...data.map((d) => [...d.percentLabel].length)) * CHART_CHAR_WIDTH;

  return renderToStaticMarkup(
    <Bar<ColumnDatum>
      data={data}
      keys={["points"]}
      indexBy="id"
      width={width}
      height={height}
      margin={{ top, right, bottom, left }}
      layout="vertical"
      groupMode="grouped"
      padding={padding}
      valueScale={{ type: "linear", min: ticks[0]!, max: ticks[ticks.length - 1]!, nice: false }}
      indexScale={{ type: "band", round: false }}
      colorBy="indexValue"
      colors={(d) => d.data.colour}
      borderRadius={2}
      enableGridY
      gridYValues={ticks}
      axisLeft={{ tickValues: ticks, tickSize: 5, tickPadding: 6, format: (value: number) => formatY(value) }}
      axisBottom={{ tickSize: 5, tickPadding: 6, tickRotation: rotation, renderTick: wrappedTick(labels) }}
      enableLabel={false}
      // The percentages only when they fit over their columns; the table has them all.
      layers={widestValue <= columnWidth + 8 ? ["grid", "axes", "bars", ColumnLabels] : ["grid", "axes", "bars"]}
      theme={THEME}
      isInteractive={false}
      animate={false}
      renderWrapper={false}
      role="img"
      ariaLabel={title}
    />,
  );
}

/**
 * The chart as an `<svg role="img">` named by `input.title`, with a viewBox of its size (a pie
 * 600 × 360, columns 720 × 360 unless `width`/`height` say otherwise) and width 100%, without
 * inline styles. Not interactive. With no slice above 0 (no slices, all 0, or a sum not above 0)
 * it is an empty SVG with just its title. The same input gives the markup drawn before (decision 124).
 */
export function renderAllocationChartSvg(input: AllocationChartInput): string {
  return chartMarkups.markup("allocation", input, drawAllocationChartSvg);
}

function drawAllocationChartSvg(input: AllocationChartInput): string {
  const { width, height } = allocationChartSize(input);
  if (!hasAllocation(input)) {
    return finish(
      `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" role="img"></svg>`,
      input,
    );
  }
  const data = chartData(input);
  const markup =
    input.kind === "pie"
      ? pieMarkup(data, width, height)
      : columnMarkup(data, width, height, input.locale, input.title);
  return finish(markup, input);
}

/** What `ChartFigure` needs from the loader: the chart, its legend and its data as a table. */
export function allocationChartFigure(
  input: AllocationChartInput,
  text: { tableCaption: string; categoryHeading: string; amountHeading: string; percentHeading: string },
): Pick<ChartFigureProps, "legend" | "table"> & { svg: string } {
  return {
    svg: renderAllocationChartSvg(input),
    legend: allocationLegend(input),
    table: allocationTable(input, {
      caption: text.tableCaption,
      categoryHeading: text.categoryHeading,
      amountHeading: text.amountHeading,
      percentHeading: text.percentHeading,
    }),
  };
}
