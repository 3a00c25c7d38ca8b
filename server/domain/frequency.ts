// spec 001 §4 "Chart display" and §9: the frequency of a time series and of a benchmark by the
// length of the range. Pure. The series endpoints apply it for `frequency=auto`.

import { addMonths } from "date-fns/addMonths";
import { isAfter } from "date-fns/isAfter";
import { parseIsoDate } from "./calendar";

export type SeriesFrequency = "daily" | "weekly" | "monthly" | "quarterly" | "yearly";
export type BenchmarkFrequency = "monthly" | "quarterly" | "yearly";

function readIsoDate(iso: string): Date {
  const date = parseIsoDate(iso.trim());
  if (!date) throw new RangeError(`not a calendar date 'YYYY-MM-DD': ${iso}`);
  return date;
}

/** "Up to N months": the end is on or before the start plus N calendar months (31 Jan + 1 month = 28/29 Feb). */
const withinMonths = (start: Date, end: Date, months: number): boolean => !isAfter(end, addMonths(start, months));

/**
 * spec 001 §4 "Chart display" and §9: the time series frequency for a date range ('YYYY-MM-DD'):
 * up to 1 month daily, up to 8 months weekly, up to 2 years monthly, up to 10 years quarterly,
 * longer yearly. An end before the start is the shortest range.
 */
export function seriesFrequency(start: string, end: string): SeriesFrequency {
  const from = readIsoDate(start);
  const to = readIsoDate(end);
  if (withinMonths(from, to, 1)) return "daily";
  if (withinMonths(from, to, 8)) return "weekly";
  if (withinMonths(from, to, 24)) return "monthly";
  if (withinMonths(from, to, 120)) return "quarterly";
  return "yearly";
}

/** spec 001 §4 "Chart display": benchmarks monthly up to 2 years, quarterly up to 10 years, else yearly. */
export function benchmarkFrequency(start: string, end: string): BenchmarkFrequency {
  const from = readIsoDate(start);
  const to = readIsoDate(end);
  if (withinMonths(from, to, 24)) return "monthly";
  if (withinMonths(from, to, 120)) return "quarterly";
  return "yearly";
}
