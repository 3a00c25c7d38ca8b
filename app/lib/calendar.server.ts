// The portal's calendar arithmetic on 'YYYY-MM-DD' dates, by date-fns, as the platform's
// server/domain/calendar.ts (decision 139). Server only: no module of the browser's first load
// imports date-fns (decision 149). A date is read as local midnight and written back from its local
// parts, so the arithmetic is the same in every time zone.

import { addDays } from "date-fns/addDays";
import { addYears } from "date-fns/addYears";
import { formatISO } from "date-fns/formatISO";
import { isAfter } from "date-fns/isAfter";
import { isValid } from "date-fns/isValid";
import { parseISO } from "date-fns/parseISO";

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** A strict 'YYYY-MM-DD' that names a real day, as a Date; null for anything else. */
export function parseIsoDate(iso: string): Date | null {
  if (!ISO_DATE.test(iso)) return null;
  const date = parseISO(iso);
  return isValid(date) ? date : null;
}

function dateOf(iso: string): Date {
  const date = parseIsoDate(iso);
  if (!date) throw new RangeError(`'${iso}' is not a calendar date in the form YYYY-MM-DD.`);
  return date;
}

const toIsoDate = (date: Date): string => formatISO(date, { representation: "date" });

/** `days` calendar days later (negative: earlier). */
export const shiftDays = (iso: string, days: number): string => toIsoDate(addDays(dateOf(iso), days));

/** `years` years later; 29 February becomes 28 February in a common year. */
export const shiftYears = (iso: string, years: number): string => toIsoDate(addYears(dateOf(iso), years));

/**
 * Decision 070's `isOverAYear`: the end is after the start's anniversary (29 February's is 28
 * February), so a calendar year, leap or not, is one year and not over it.
 */
export function isOverAYear(start: string, end: string): boolean {
  const from = parseIsoDate(start);
  const to = parseIsoDate(end);
  return from !== null && to !== null && isAfter(to, addYears(from, 1));
}
