// spec 001 §4 "Chart display" and §9: the frequency of a time series and of a benchmark by the
// length of the range. Pure. The series endpoints apply it for `frequency=auto`.

export type SeriesFrequency = "daily" | "weekly" | "monthly" | "quarterly" | "yearly";
export type BenchmarkFrequency = "monthly" | "quarterly" | "yearly";

type CalendarDate = { year: number; month: number; day: number };

function readIsoDate(iso: string): CalendarDate {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso.trim());
  const date = match ? { year: Number(match[1]), month: Number(match[2]), day: Number(match[3]) } : null;
  if (!date || date.month < 1 || date.month > 12 || date.day < 1 || date.day > daysInMonth(date.year, date.month)) {
    throw new RangeError(`not a calendar date 'YYYY-MM-DD': ${iso}`);
  }
  return date;
}

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** N calendar months later; a day the target month lacks becomes its last day (31 Jan + 1 month = 28/29 Feb). */
function addMonths(date: CalendarDate, months: number): CalendarDate {
  const index = date.year * 12 + (date.month - 1) + months;
  const year = Math.floor(index / 12);
  const month = (index % 12) + 1;
  return { year, month, day: Math.min(date.day, daysInMonth(year, month)) };
}

const ordinal = (d: CalendarDate) => d.year * 10_000 + d.month * 100 + d.day;

/** "Up to N months": the end is on or before the start plus N calendar months. */
function withinMonths(start: CalendarDate, end: CalendarDate, months: number): boolean {
  return ordinal(end) <= ordinal(addMonths(start, months));
}

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
