// ISO calendar dates 'YYYY-MM-DD' (no time, no zone) and their arithmetic, by date-fns
// (docs/decisions/139-date-arithmetic-by-date-fns.md). Pure. A date is read as local midnight and
// written back from its local parts, so the calendar arithmetic is the same in every time zone.

import { UTCDate } from "@date-fns/utc";
import { add } from "date-fns/add";
import { addDays } from "date-fns/addDays";
import { addMonths } from "date-fns/addMonths";
import { addYears } from "date-fns/addYears";
import { differenceInCalendarDays } from "date-fns/differenceInCalendarDays";
import { formatISO } from "date-fns/formatISO";
import { isValid } from "date-fns/isValid";
import { isWeekend } from "date-fns/isWeekend";
import { lastDayOfYear } from "date-fns/lastDayOfYear";
import { parseISO } from "date-fns/parseISO";

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** A strict 'YYYY-MM-DD' that names a real day, as a Date; null for anything else. */
export function parseIsoDate(iso: string): Date | null {
  if (!ISO_DATE.test(iso)) return null;
  const date = parseISO(iso);
  return isValid(date) ? date : null;
}

/** Whether `iso` is a strict 'YYYY-MM-DD' naming a real day (2023-02-29 is not). */
export const isIsoDate = (iso: string): boolean => parseIsoDate(iso) !== null;

/** A date's calendar day as 'YYYY-MM-DD'. */
export const toIsoDate = (date: Date): string => formatISO(date, { representation: "date" });

function dateOf(iso: string): Date {
  const date = parseIsoDate(iso);
  if (!date) throw new RangeError(`'${iso}' is not a calendar date in the form YYYY-MM-DD.`);
  return date;
}

/** `days` calendar days later (negative: earlier). */
export const shiftDays = (iso: string, days: number): string => toIsoDate(addDays(dateOf(iso), days));

/** `months` calendar months later; a day the target month lacks becomes its last (31 Jan + 1 = 28/29 Feb). */
export const shiftMonths = (iso: string, months: number): string => toIsoDate(addMonths(dateOf(iso), months));

/** `years` years later; 29 February becomes 28 February in a common year. */
export const shiftYears = (iso: string, years: number): string => toIsoDate(addYears(dateOf(iso), years));

/** The last day of the year before `iso`'s year (the start of a year to date). */
export const endOfPreviousYear = (iso: string): string => toIsoDate(lastDayOfYear(addYears(dateOf(iso), -1)));

/** Whole calendar days from `from` to `to` (negative when `to` is earlier). */
export const calendarDaysBetween = (from: string, to: string): number =>
  differenceInCalendarDays(dateOf(to), dateOf(from));

/** Saturday or Sunday. */
export const isWeekendDate = (iso: string): boolean => isWeekend(dateOf(iso));

const LONG_DATE = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "long", year: "numeric", timeZone: "UTC" });

/** 14 March 2025, from a date, a date-time or a 'YYYY-MM-DD' (the UTC calendar day). */
export function longDate(value: string | Date): string {
  const d = typeof value === "string" ? new Date(value.length === 10 ? `${value}T00:00:00Z` : value) : value;
  return LONG_DATE.format(d);
}

/**
 * The instant `days` days and `hours` hours after `instant` (negative: before), counted in UTC, so a
 * day is 24 hours in every time zone: the demo data's "3 days and 5 hours ago".
 */
export const shiftInstant = (instant: Date, days: number, hours = 0): Date =>
  add(new UTCDate(instant.getTime()), { days, hours });
