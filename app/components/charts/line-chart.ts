// The line chart's data, scales, axes and formats, shared by the server's SVG and the browser's
// interactive chart so both draw the same chart (spec 001 §9 "Line chart"). Only types come from
// nivo here: importing this module never loads nivo.

import type { LineSvgProps } from "@nivo/line";
import { UTCDate } from "@date-fns/utc";
import { addDays } from "date-fns/addDays";
import { addMonths } from "date-fns/addMonths";
import { addYears } from "date-fns/addYears";
import { differenceInCalendarDays } from "date-fns/differenceInCalendarDays";
import { eachDayOfInterval } from "date-fns/eachDayOfInterval";
import { eachMonthOfInterval } from "date-fns/eachMonthOfInterval";
import { eachYearOfInterval } from "date-fns/eachYearOfInterval";
import { getMonth } from "date-fns/getMonth";
import { getYear } from "date-fns/getYear";
import { isFirstDayOfMonth } from "date-fns/isFirstDayOfMonth";
import { isSameDay } from "date-fns/isSameDay";
import { startOfMonth } from "date-fns/startOfMonth";
import { startOfYear } from "date-fns/startOfYear";
import { calendarDayIso } from "~/lib/calendar-day";
import { formatDatePattern } from "~/lib/format-date";
import { moneyFormatter, numberFormat } from "~/lib/format";
import { colourNumber, type ChartLegendItem, type ChartTable } from "./chart-data";

export type LineChartPoint = { /** 'YYYY-MM-DD' */ date: string; value: number };

export type LineChartSeries = { id: string; label: string; points: LineChartPoint[] };

export type LineChartInput = {
  series: LineChartSeries[];
  /** One colour per series, in order (the site's chart colours); repeated when there are more series. */
  colours: string[];
  /** The SVG's coordinate size; it scales to the width of its container. */
  width?: number;
  height?: number;
  /** 'percent': values are fractions (0.1234 is 12.34%); 'money': amounts in `currency`. */
  yFormat: "percent" | "money";
  currency?: string;
  locale: string;
  /** The chart's accessible name. */
  title: string;
};

/** spec 001 §9: the dashboard's line chart is 400 high. */
export const LINE_CHART_SIZE = { width: 720, height: 400 } as const;
/** spec 001 §9: 300 high on small screens (below the 576px breakpoint). */
export const NARROW_LINE_CHART_SIZE = { width: 360, height: 300 } as const;
export const CHART_BREAKPOINT_PX = 576;

const FONT_SIZE = 12;
/** The grid's colour in the SVG (the light theme's --colour-border); charts.css picks the theme's. */
export const CHART_GRID_COLOUR = "#d5dbe3";
const ISO_DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
// spec 001 §9 "Minimum x-range 2 days".
const MIN_X_RANGE_DAYS = 2;

type NivoPoint = { x: string; y: number };
/** A series as nivo draws it. */
export type NivoSeries = { id: string; data: NivoPoint[] };
export type LineChartProps = Omit<LineSvgProps<NivoSeries>, "width" | "height"> & { width: number; height: number };

// ---------- dates ----------
// The chart's dates are UTC calendar days (nivo's time scale runs with `useUTC`). They are read as
// `UTCDate`s (`@date-fns/utc`), which date-fns's arithmetic keeps, so the ticks are stepped in UTC and
// are the same in every time zone (decision 149).

/** A strict 'YYYY-MM-DD' naming a real day, as a UTCDate at its midnight; null otherwise. */
function utcDate(iso: string): Date | null {
  const match = ISO_DAY.exec(iso);
  return match && calendarDayIso(Number(match[1]), Number(match[2]), Number(match[3])) ? new UTCDate(iso) : null;
}

const isoDay = (date: Date) => date.toISOString().slice(0, 10);

type TickInterval = { unit: "day" | "month" | "year"; step: number };

// Tick steps from a day to decades; months align to quarters and half-years, years to multiples.
const TICK_INTERVALS: TickInterval[] = [
  { unit: "day", step: 1 },
  { unit: "day", step: 2 },
  { unit: "day", step: 7 },
  { unit: "day", step: 14 },
  { unit: "month", step: 1 },
  { unit: "month", step: 2 },
  { unit: "month", step: 3 },
  { unit: "month", step: 6 },
  { unit: "year", step: 1 },
  { unit: "year", step: 2 },
  { unit: "year", step: 5 },
  { unit: "year", step: 10 },
  { unit: "year", step: 20 },
  { unit: "year", step: 50 },
];

/** The first month (or year) starting on or after `from` whose number is a multiple of the step. */
function firstAlignedStart(interval: TickInterval, from: Date): Date {
  const { step } = interval;
  if (interval.unit === "month") {
    const start = isFirstDayOfMonth(from) ? from : startOfMonth(addMonths(from, 1));
    return addMonths(start, (step - (getMonth(start) % step)) % step);
  }
  const start = isSameDay(from, startOfYear(from)) ? from : startOfYear(addYears(from, 1));
  return addYears(start, (step - (getYear(start) % step)) % step);
}

/** The interval's ticks from `from` to `to`; null when there would be more than `maxTicks`. */
function ticksOf(interval: TickInterval, from: Date, to: Date, maxTicks: number): Date[] | null {
  const { step } = interval;
  if (interval.unit === "day") {
    const count = Math.floor(differenceInCalendarDays(to, from) / step) + 1;
    return count > maxTicks ? null : eachDayOfInterval({ start: from, end: to }, { step });
  }
  const start = firstAlignedStart(interval, from);
  if (start > to) return [];
  const ticks =
    interval.unit === "month"
      ? eachMonthOfInterval({ start, end: to }, { step })
      : eachYearOfInterval({ start, end: to }, { step });
  return ticks.length > maxTicks ? null : ticks;
}

/**
 * The finest interval giving at most `maxTicks` ticks. When that leaves fewer than 2 (a short
 * range), the range's two ends at the previous, finer interval's granularity.
 */
function timeTicks(from: Date, to: Date, maxTicks: number): { ticks: Date[]; interval: TickInterval } {
  let finer: TickInterval | null = null;
  for (const interval of TICK_INTERVALS) {
    const ticks = ticksOf(interval, from, to, maxTicks);
    if (ticks) return ticks.length >= 2 ? { ticks, interval } : { ticks: [from, to], interval: finer ?? interval };
    finer = interval;
  }
  const coarsest = TICK_INTERVALS[TICK_INTERVALS.length - 1]!;
  return { ticks: ticksOf(coarsest, from, to, Infinity) ?? [], interval: coarsest };
}

type DatePattern = "d MMM" | "MMM yyyy" | "yyyy" | "d MMM yyyy";

// Canadian English puts the month first ('Mar 4', 'Mar 4, 2024'; decision 211), as its long dates do.
const MONTH_FIRST: Partial<Record<DatePattern, string>> = { "d MMM": "MMM d", "d MMM yyyy": "MMM d, yyyy" };

/** A chart date (a UTC day, whatever the Date's kind) by a date-fns pattern, in the words of the server's dates. */
const formatUtcDate = (date: Date, pattern: DatePattern, locale: string): string =>
  formatDatePattern(
    new UTCDate(date.getTime()),
    (locale === "en-CA" ? MONTH_FIRST[pattern] : undefined) ?? pattern,
    locale,
  );

// Ticks a day or weeks apart show the day ('4 Mar'), months apart the month ('Jan 2024'), years the year.
const TICK_PATTERNS: Record<TickInterval["unit"], DatePattern> = { day: "d MMM", month: "MMM yyyy", year: "yyyy" };

/** spec 001 §9: "'D MMM Y' on tooltips", "'D MMM YYYY' for displayed dates" ('1 May 2024', '1 mai 2024'). */
export function formatChartDate(iso: string, locale: string): string {
  const date = utcDate(iso);
  return date ? formatUtcDate(date, "d MMM yyyy", locale) : iso;
}

// ---------- values ----------

/** Nice ticks (steps of 1, 2, 2.5 or 5 × 10ⁿ) covering min..max in about `count` steps. */
export function niceTicks(min: number, max: number, count: number): number[] {
  let low = min;
  let high = max;
  if (low === high) {
    const pad = Math.abs(low) * 0.1 || 1;
    low -= pad;
    high += pad;
  }
  const raw = (high - low) / Math.max(1, count);
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = ([1, 2, 2.5, 5, 10].find((m) => m * power >= raw) ?? 10) * power;
  const first = Math.floor(low / step + 1e-9);
  const last = Math.ceil(high / step - 1e-9);
  const ticks: number[] = [];
  for (let i = first; i <= last; i++) ticks.push(Number((i * step).toPrecision(12)));
  return ticks;
}

/** A value with `decimals` decimals: percent from a fraction (0.1234 → '12.34%'), or money. */
export function valueFormatter(
  input: Pick<LineChartInput, "yFormat" | "currency" | "locale">,
  decimals: number,
  compact = false,
): (value: number) => string {
  // Compact amounts mix units ('£900k', '£1.1m'): no trailing zeros there.
  const options: Intl.NumberFormatOptions = compact
    ? { notation: "compact", minimumFractionDigits: 0, maximumFractionDigits: decimals }
    : { minimumFractionDigits: decimals, maximumFractionDigits: decimals };
  if (input.yFormat === "percent") {
    const format = numberFormat(input.locale, { ...options, style: "percent" });
    return (value) => format.format(value);
  }
  return moneyFormatter(input.locale, input.currency ?? "GBP", options);
}

/** The number a tick shows before its unit: percent points, thousands or millions in compact form. */
function shownNumber(value: number, yFormat: LineChartInput["yFormat"], compact: boolean): number {
  if (yFormat === "percent") return value * 100;
  if (!compact || Math.abs(value) < 1000) return value;
  return value / 10 ** (Math.floor(Math.log10(Math.abs(value)) / 3) * 3);
}

/**
 * Axis labels with the fewest decimals (0 to 2, spec 001 §9 "Percentages 2 decimals") that show
 * every tick exactly; amounts of 10,000 or more in compact form ('£1.2m').
 */
function valueTickFormat(input: LineChartInput, ticks: number[]): (value: number) => string {
  const compact = input.yFormat === "money" && Math.max(...ticks.map(Math.abs)) >= 10_000;
  const exactAt = (decimals: number) =>
    ticks.every((t) => {
      const shown = shownNumber(t, input.yFormat, compact);
      return Math.abs(Math.round(shown * 10 ** decimals) / 10 ** decimals - shown) < 1e-9;
    });
  const decimals = [0, 1, 2].find(exactAt) ?? 2;
  return valueFormatter(input, decimals, compact);
}

// ---------- the chart ----------

const THEME: LineChartProps["theme"] = {
  background: "transparent",
  // The page's font and text colour: the SVG is inline in the page.
  text: { fontFamily: "inherit", fontSize: FONT_SIZE, fill: "currentColor" },
  axis: {
    domain: { line: { stroke: "currentColor", strokeWidth: 1 } },
    ticks: { line: { stroke: "currentColor", strokeWidth: 1 }, text: { fill: "currentColor" } },
  },
  // the light theme's grid; charts.css draws it in the theme's (docs/decisions/203)
  grid: { line: { stroke: CHART_GRID_COLOUR, strokeWidth: 1 } },
};

/** The series with at least one readable point, their points sorted by date. */
function chartSeries(input: LineChartInput): NivoSeries[] {
  return input.series.map((s) => ({
    id: s.id,
    data: s.points
      .filter((p) => utcDate(p.date) && Number.isFinite(p.value))
      .map((p) => ({ x: p.date, y: p.value }))
      .sort((a, b) => a.x.localeCompare(b.x)),
  }));
}

/** The chart's colours: the site's, or the brand's blue when it has none. */
export function chartPalette(input: Pick<LineChartInput, "colours">): string[] {
  return input.colours.length ? input.colours : ["#1d4f91"];
}

/** The colour of each series, in order. */
export function seriesColours(input: Pick<LineChartInput, "series" | "colours">): string[] {
  const colours = chartPalette(input);
  return input.series.map((_, i) => colours[i % colours.length]!);
}

/**
 * nivo `Line` props for a chart `width` × `height`: time x axis with about one tick per 110px,
 * nice y ticks, line width 2, area fill at opacity 0.1, no point markers (spec 001 §9).
 */
export function lineChartProps(input: LineChartInput, width: number, height: number): LineChartProps {
  const data = chartSeries(input);
  const dates = data.flatMap((s) => s.data.map((p) => p.x)).sort();
  const values = data.flatMap((s) => s.data.map((p) => p.y));
  const today = isoDay(new Date());
  const from = utcDate(dates[0] ?? today)!;
  const last = utcDate(dates[dates.length - 1] ?? today)!;
  const to = differenceInCalendarDays(last, from) < MIN_X_RANGE_DAYS ? addDays(from, MIN_X_RANGE_DAYS) : last;

  // Percentages keep 0 in view: gains and losses read against it.
  const withZero = input.yFormat === "percent" ? [...values, 0] : values;
  const low = withZero.length ? Math.min(...withZero) : 0;
  const high = withZero.length ? Math.max(...withZero) : 1;
  const top = 12;
  const bottom = 36;
  const innerHeight = height - top - bottom;
  const yTicks = niceTicks(low, high, Math.max(2, Math.min(8, Math.round(innerHeight / 50))));
  const yMin = yTicks[0]!;
  const yMax = yTicks[yTicks.length - 1]!;
  const formatY = valueTickFormat(input, yTicks);
  const longestY = Math.max(...yTicks.map((t) => formatY(t).length));
  const left = Math.ceil(longestY * FONT_SIZE * 0.62) + 16;
  const right = 32;

  const maxXTicks = Math.max(2, Math.floor((width - left - right) / 110));
  const { ticks: xTicks, interval } = timeTicks(from, to, maxXTicks);
  const formatX = (date: Date) => formatUtcDate(date, TICK_PATTERNS[interval.unit], input.locale);
  const formatValue = valueFormatter(input, 2);

  return {
    data,
    width,
    height,
    margin: { top, right, bottom, left },
    xScale: { type: "time", format: "%Y-%m-%d", precision: "day", useUTC: true, min: isoDay(from), max: isoDay(to) },
    // nivo hands the parsed Date to the formats of the time scale.
    xFormat: (value: unknown) =>
      value instanceof Date ? formatUtcDate(value, "d MMM yyyy", input.locale) : String(value),
    yScale: { type: "linear", min: yMin, max: yMax, nice: false },
    yFormat: (value: number) => formatValue(value),
    axisBottom: { tickValues: xTicks, tickSize: 5, tickPadding: 6, format: (value: Date) => formatX(value) },
    axisLeft: { tickValues: yTicks, tickSize: 5, tickPadding: 6, format: (value: number) => formatY(value) },
    enableGridX: false,
    gridYValues: yTicks,
    colors: seriesColours(input),
    lineWidth: 2,
    enableArea: true,
    areaOpacity: 0.1,
    areaBaselineValue: Math.min(yMax, Math.max(yMin, 0)),
    enablePoints: false,
    curve: "linear",
    theme: THEME,
    animate: false,
    role: "img",
    ariaLabel: input.title,
  };
}

/** The legend of a chart: each series' label and colour. */
export function lineChartLegend(input: Pick<LineChartInput, "series" | "colours">): ChartLegendItem[] {
  const colours = seriesColours(input);
  const palette = chartPalette(input);
  return input.series.map((s, i) => ({
    label: s.label,
    colour: colours[i]!,
    colourNumber: colourNumber(palette, colours[i]!),
  }));
}

/**
 * The chart's data as a table: one row per date ('D MMM YYYY'), one column per series, values
 * with 2 decimals (spec 001 §9); a date a series has no value for is empty.
 */
export function lineChartTable(input: LineChartInput, text: { caption: string; dateHeading: string }): ChartTable {
  const format = valueFormatter(input, 2);
  const data = chartSeries(input);
  const dates = [...new Set(data.flatMap((s) => s.data.map((p) => p.x)))].sort();
  const byDate = data.map((s) => new Map(s.data.map((p) => [p.x, p.y])));
  return {
    caption: text.caption,
    columns: [text.dateHeading, ...input.series.map((s) => s.label)],
    rows: dates.map((date) => ({
      header: formatChartDate(date, input.locale),
      cells: byDate.map((values) => {
        const value = values.get(date);
        return value === undefined ? "" : format(value);
      }),
    })),
  };
}
