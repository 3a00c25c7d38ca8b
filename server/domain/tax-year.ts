// Tax years and calendar months of income received (issue 41, docs/decisions/199-income-received.md).
// Pure; the calendar arithmetic by date-fns (decision 139), on ISO dates 'YYYY-MM-DD'.
//
// The site's jurisdiction decides the tax year: the UK's runs from 6 April to 5 April, Australia's
// (its financial year) from 1 July to 30 June, Canada's is the calendar year. A tax year is named by
// the year it starts in (2025 is 6 April 2025 to 5 April 2026 in the UK).

import { addMonths } from "date-fns/addMonths";
import { addYears } from "date-fns/addYears";
import { endOfMonth } from "date-fns/endOfMonth";
import { startOfMonth } from "date-fns/startOfMonth";
import { subDays } from "date-fns/subDays";
import { parseIsoDate, toIsoDate } from "./calendar";

export const JURISDICTIONS = ["GB", "AU", "CA"] as const;
export type Jurisdiction = (typeof JURISDICTIONS)[number];

/** The first day of a tax year, month (1–12) and day, by jurisdiction. */
const FIRST_DAY: Record<Jurisdiction, { month: number; day: number }> = {
  GB: { month: 4, day: 6 },
  AU: { month: 7, day: 1 },
  CA: { month: 1, day: 1 },
};

function dateOf(iso: string): Date {
  const date = parseIsoDate(iso);
  if (!date) throw new RangeError(`'${iso}' is not a calendar date in the form YYYY-MM-DD.`);
  return date;
}

const pad = (n: number, width = 2) => String(n).padStart(width, "0");

/** The first day of tax year `year` (the year it starts in). */
export function taxYearStart(year: number, jurisdiction: Jurisdiction): string {
  const { month, day } = FIRST_DAY[jurisdiction];
  return `${pad(year, 4)}-${pad(month)}-${pad(day)}`;
}

/** Tax year `year`'s first and last days: a year on from its first day, less a day. */
export function taxYearBounds(year: number, jurisdiction: Jurisdiction): { start: string; end: string } {
  const start = taxYearStart(year, jurisdiction);
  return { start, end: toIsoDate(subDays(addYears(dateOf(start), 1), 1)) };
}

/** The tax year (the year it starts in) that `iso` falls in. */
export function taxYearOf(iso: string, jurisdiction: Jurisdiction): number {
  const year = dateOf(iso).getFullYear();
  return iso >= taxYearStart(year, jurisdiction) ? year : year - 1;
}

/** A calendar month, 'YYYY-MM', of a date. */
export const monthOf = (iso: string): string => iso.slice(0, 7);

export type MonthBucket = { month: string; start: string; end: string };

/**
 * The `count` calendar months ending with `today`'s, oldest first, each with its first and last day
 * (the last month ends on its last day; income is dated no later than today).
 */
export function lastMonths(today: string, count: number): MonthBucket[] {
  const current = startOfMonth(dateOf(today));
  return Array.from({ length: count }, (_, i) => {
    const first = addMonths(current, i - (count - 1));
    const start = toIsoDate(first);
    return { month: monthOf(start), start, end: toIsoDate(endOfMonth(first)) };
  });
}

/**
 * Amounts dated by day summed into the months given, a month with nothing being 0: an amount
 * outside every month is left out.
 */
export function sumByMonth(
  months: readonly MonthBucket[],
  amounts: Iterable<{ date: string; minor: number }>,
): Map<string, number> {
  const sums = new Map(months.map((m) => [m.month, 0]));
  for (const { date, minor } of amounts) {
    const month = monthOf(date);
    const sum = sums.get(month);
    if (sum !== undefined) sums.set(month, sum + minor);
  }
  return sums;
}

/** The tax years from the one holding `first` to the one holding `today`, newest first. */
export function taxYearsBetween(first: string, today: string, jurisdiction: Jurisdiction): number[] {
  const from = taxYearOf(first <= today ? first : today, jurisdiction);
  const to = taxYearOf(today, jurisdiction);
  return Array.from({ length: to - from + 1 }, (_, i) => to - i);
}
