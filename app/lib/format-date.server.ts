// Dates written in the locale's words by date-fns (spec 000 §9): long and short calendar dates and
// the last login in the user's time zone. Server only (loaders and .server modules): the browser's
// first load carries no date-fns (decision 149).

import { isValid } from "date-fns/isValid";
import { LRUCache } from "lru-cache";
import { parseIsoDate } from "./calendar.server";
import { dateTimeFormat, localeOf, SHORT_DATE_PATTERNS } from "./format";
import { formatDatePattern } from "./format-date";
import { DEFAULT_LOCALE } from "./i18n";

/** Reads 'YYYY-MM-DD' (or the date part of an ISO date-time) as a calendar date, with no time zone shift. */
const calendarDate = (isoDate: string): Date | null => parseIsoDate(isoDate.trim().slice(0, 10));

/** spec 000 §9 'Do MMMM YYYY' ('1st May 2024'; in French '1er mai 2024'). */
const LONG_PATTERN = "do MMMM yyyy";

// A page writes the same few dates many times (a list's as-of date, its rows' trade dates): each
// is written by date-fns once and kept (a pure function of its three arguments).
const written = new LRUCache<string, string>({ max: 5_000 });

/** A calendar date ('YYYY-MM-DD') in the locale's long or short form; '' when it cannot be read. */
export function formatDate(
  isoDate: string | null | undefined,
  locale: string = DEFAULT_LOCALE,
  style: "long" | "short" = "long",
): string {
  if (!isoDate) return "";
  const key = `${isoDate} ${locale} ${style}`;
  let text = written.get(key);
  if (text === undefined) {
    text = writeDate(isoDate, locale, style);
    written.set(key, text);
  }
  return text;
}

function writeDate(isoDate: string, locale: string, style: "long" | "short"): string {
  const date = calendarDate(isoDate);
  if (!date) return "";
  const lng = localeOf(locale);
  const pattern = style === "long" ? LONG_PATTERN : SHORT_DATE_PATTERNS[lng].tokens;
  return formatDatePattern(date, pattern, lng);
}

/** Wall-clock parts of an instant in a time zone (Intl, so no time zone data is shipped). */
function zonedParts(instant: Date, timeZone: string) {
  const parts = dateTimeFormat("en-US", {
    timeZone,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
  }).formatToParts(instant);
  const get = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((p) => p.type === type)?.value);
  return { year: get("year"), month: get("month"), day: get("day"), hour: get("hour") % 24, minute: get("minute") };
}

function validTimeZone(timeZone: string | null | undefined): string {
  if (!timeZone) return "UTC";
  try {
    dateTimeFormat("en-US", { timeZone });
    return timeZone;
  } catch {
    return "UTC";
  }
}

/** Reads an ISO date-time; one without an offset is taken as UTC (the platform's clock). */
function instantOf(isoDateTime: string): Date | null {
  const text = isoDateTime.trim();
  if (!/^\d{4}-\d{2}-\d{2}/.test(text)) return null;
  const hasZone = /(Z|[+-]\d{2}:?\d{2})$/i.test(text);
  const withTime = /T|\s\d/.test(text) ? text.replace(" ", "T") : `${text}T00:00:00`;
  const date = new Date(hasZone ? withTime : `${withTime}Z`);
  return isValid(date) ? date : null;
}

/**
 * spec 000 §9: last login as 'D MMM YYYY H:mm' in the user's time zone, with the zone's
 * abbreviation ('1 May 2024 10:05 BST'). No or an unknown time zone means UTC.
 */
export function formatLastLogin(
  isoDateTime: string | null | undefined,
  timeZone: string | null | undefined,
  locale: string = DEFAULT_LOCALE,
): string {
  if (!isoDateTime) return "";
  const instant = instantOf(isoDateTime);
  if (!instant) return "";
  const lng = localeOf(locale);
  const zone = validTimeZone(timeZone);
  const p = zonedParts(instant, zone);
  const wallClock = new Date(p.year, p.month - 1, p.day, p.hour, p.minute);
  const abbreviation =
    dateTimeFormat(lng, { timeZone: zone, timeZoneName: "short" })
      .formatToParts(instant)
      .find((part) => part.type === "timeZoneName")?.value ?? zone;
  return `${formatDatePattern(wallClock, "d MMM yyyy H:mm", lng)} ${abbreviation}`;
}
