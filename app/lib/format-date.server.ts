// Dates written in the locale's words by date-fns (spec 000 §9): long and short calendar dates and
// the last login in the user's time zone. Server only (loaders and .server modules): the browser's
// first load carries no date-fns (decision 149).

import { isValid } from "date-fns/isValid";
import { LRUCache } from "lru-cache";
import { parseIsoDate } from "./calendar.server";
import { dateTimeFormat, localeOf, SHORT_DATE_PATTERNS } from "./format";
import { formatDatePattern } from "./format-date";
import { DEFAULT_LOCALE, type Locale } from "./i18n";

/** Reads 'YYYY-MM-DD' (or the date part of an ISO date-time) as a calendar date, with no time zone shift. */
const calendarDate = (isoDate: string): Date | null => parseIsoDate(isoDate.trim().slice(0, 10));

/**
 * A calendar date in words, each locale its own way (issue 40, decision 211). en-GB is the spec's
 * 'Do MMMM YYYY' ('1st May 2024', spec 000 §9, written for en-GB); fr-CA '1er mai 2024', '15 août
 * 2024' (French writes only the first of the month as an ordinal; date-fns's fr-CA does so).
 * Australian and Canadian English write no ordinal: Intl's long date in the locale ('1 May 2024',
 * 'May 1, 2024'), never the British '1st May 2024'.
 */
const LONG_BY_PATTERN: Partial<Record<Locale, string>> = { "en-GB": "do MMMM yyyy", "fr-CA": "do MMMM yyyy" };
const LONG_BY_INTL: Intl.DateTimeFormatOptions = { day: "numeric", month: "long", year: "numeric", timeZone: "UTC" };

/**
 * A date and time in the locale's way (decision 211): en-GB the spec's 'D MMM YYYY H:mm'
 * ('1 May 2024 10:05'), fr-CA the same order in French ('2 sept. 2024 9:00'); en-AU and en-CA
 * Intl's medium date and short time of the locale ('1 May 2024, 7:05 pm', 'May 1, 2024, 5:05 a.m.').
 */
const TIME_BY_PATTERN: Partial<Record<Locale, string>> = { "en-GB": "d MMM yyyy H:mm", "fr-CA": "d MMM yyyy H:mm" };
const TIME_BY_INTL: Intl.DateTimeFormatOptions = {
  day: "numeric",
  month: "short",
  year: "numeric",
  hour: "numeric",
  minute: "2-digit",
};

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
  if (style === "short") return formatDatePattern(date, SHORT_DATE_PATTERNS[lng].tokens, lng);
  const pattern = LONG_BY_PATTERN[lng];
  if (pattern) return formatDatePattern(date, pattern, lng);
  // the calendar day as a UTC instant, written in UTC: no time zone moves the day
  const day = new Date(Date.UTC(date.getFullYear(), date.getMonth(), date.getDate()));
  return dateTimeFormat(lng, LONG_BY_INTL).format(day);
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
  const pattern = TIME_BY_PATTERN[lng];
  let written: string;
  if (pattern) {
    const p = zonedParts(instant, zone);
    written = formatDatePattern(new Date(p.year, p.month - 1, p.day, p.hour, p.minute), pattern, lng);
  } else {
    written = dateTimeFormat(lng, { ...TIME_BY_INTL, timeZone: zone }).format(instant);
  }
  return `${written} ${zoneName(instant, zone, lng)}`;
}

const OFFSET_ONLY = /^(GMT|UTC)[+\-\u2212]\d/;

/** The locales asked, in order, for a zone's name when the page's own has only an offset. */
const NAMING_LOCALES: Record<Locale, readonly string[]> = {
  "en-GB": ["en-GB", "en-AU", "en-CA", "en-US"],
  "en-AU": ["en-AU", "en-GB", "en-CA", "en-US"],
  "en-CA": ["en-CA", "en-US", "en-GB", "en-AU"],
  "fr-CA": ["fr-CA"],
};

/**
 * The user's time zone by its short name (decision 211): 'AEDT', 'EST', 'BST', 'HNE', as the
 * people who live there write it. Intl names a zone only in the locales of its country ('GMT+11'
 * for Sydney in en-GB, 'GMT-5' for Toronto in en-AU): then the other English locales are asked
 * (an English page), and the offset stays where none names it. 'UTC' for UTC itself.
 */
function zoneName(instant: Date, zone: string, locale: Locale): string {
  if (zone === "UTC" || zone === "Etc/UTC") return "UTC";
  let offset: string | null = null;
  for (const lng of NAMING_LOCALES[locale]) {
    const name = dateTimeFormat(lng, { timeZone: zone, timeZoneName: "short" })
      .formatToParts(instant)
      .find((part) => part.type === "timeZoneName")?.value;
    if (!name) continue;
    if (!OFFSET_ONLY.test(name)) return name;
    offset ??= name;
  }
  return offset ?? zone;
}
