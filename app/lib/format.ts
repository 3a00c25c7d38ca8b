// Money and dates as the user reads them (spec 000 §9). Pure: shared by the server and the browser.

import { format as formatWithPattern, isValid } from "date-fns";
import { enAU, enCA, enGB, frCA } from "date-fns/locale";
import type { Locale as DateFnsLocale } from "date-fns";
import { DEFAULT_LOCALE, type Locale, toSupportedLocale } from "./i18n";

const DATE_LOCALES: Record<Locale, DateFnsLocale> = { "en-GB": enGB, "en-CA": enCA, "en-AU": enAU, "fr-CA": frCA };

// decision 124: an Intl formatter costs far more to make than to use, so each is made once per
// locale and options and kept, at most MAX_KEPT of a kind, the oldest going first. The server's
// modules and the browser's (charts, the compose form's file sizes) use them alike (decision 148).
const MAX_KEPT = 500;

/** `map`'s value for `key`, else `make()`'s, kept. A `make` that throws keeps nothing. */
export function keptIn<V>(map: Map<string, V>, key: string, make: () => V): V {
  let value = map.get(key);
  if (value === undefined) {
    value = make();
    if (map.size >= MAX_KEPT) map.delete(map.keys().next().value as string);
    map.set(key, value);
  }
  return value;
}

const numberFormats = new Map<string, Intl.NumberFormat>();
const dateTimeFormats = new Map<string, Intl.DateTimeFormat>();
// The options are literals written in the code, so their keys come in one order for one call site.
const formatKey = (locale: string, options: object | undefined) =>
  `${locale}\u0000${options ? JSON.stringify(options) : ""}`;

/** `new Intl.NumberFormat(locale, options)`, made once for the same locale and options. */
export function numberFormat(locale: string, options?: Intl.NumberFormatOptions): Intl.NumberFormat {
  return keptIn(numberFormats, formatKey(locale, options), () => new Intl.NumberFormat(locale, options));
}

/** `new Intl.DateTimeFormat(locale, options)`, made once for the same locale and options. */
export function dateTimeFormat(locale: string, options?: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  return keptIn(dateTimeFormats, formatKey(locale, options), () => new Intl.DateTimeFormat(locale, options));
}

function localeOf(locale: string | null | undefined): Locale {
  return toSupportedLocale(locale) ?? DEFAULT_LOCALE;
}

/** spec 000 §9: default currency and decimals. */
export const DEFAULT_CURRENCY = "GBP";
export const DEFAULT_DECIMALS = 2;

// one formatting function per locale, currency and decimals, not one per figure (decision 124)
const moneyFormats = new Map<string, (value: number) => string>();

/**
 * spec 000 §9 "Currency symbols: GBP £, GBX p, EUR €, USD $, AUD $, CAD $": every dollar is a bare
 * '$' whatever the locale (Intl's narrow symbol), and GBX (pence sterling) is the amount in pence
 * followed by 'p'. Other currencies take Intl's narrow symbol, or their code.
 */
export function formatMoney(
  amount: number,
  currencyCode: string | null | undefined = DEFAULT_CURRENCY,
  locale: string = DEFAULT_LOCALE,
  options: { decimals?: number } = {},
): string {
  if (!Number.isFinite(amount)) return "";
  const lng = localeOf(locale);
  const decimals = options.decimals ?? DEFAULT_DECIMALS;
  // -0.001 rounds to 0: never show '-£0.00'.
  const value = roundTo(amount, decimals) === 0 ? 0 : amount;
  const code = (currencyCode || DEFAULT_CURRENCY).toUpperCase();
  return keptIn(moneyFormats, `${lng} ${code} ${decimals}`, () =>
    moneyFormatter(lng, code, { minimumFractionDigits: decimals, maximumFractionDigits: decimals }),
  )(value);
}

/**
 * Amounts in `currencyCode` with the number options given (decimals, compact notation), by spec 000
 * §9's symbols: GBX is the amount in pence followed by 'p', a code Intl does not know follows the
 * number. The figures' own formatter (`formatMoney`) and the charts' axes use it.
 */
export function moneyFormatter(
  locale: string,
  currencyCode: string,
  options: Intl.NumberFormatOptions,
): (value: number) => string {
  const code = currencyCode.toUpperCase();
  if (code === "GBX") {
    const number = numberFormat(locale, options);
    return (value) => `${number.format(value)}p`;
  }
  try {
    const currency = numberFormat(locale, {
      style: "currency",
      currency: code,
      currencyDisplay: "narrowSymbol",
      ...options,
    });
    return (value) => currency.format(value);
  } catch {
    // Not a currency code Intl knows: the number and the code.
    const number = numberFormat(locale, options);
    return (value) => `${number.format(value)} ${code}`;
  }
}

function roundTo(amount: number, decimals: number): number {
  const factor = 10 ** decimals;
  return Math.round(amount * factor) / factor;
}

/** Reads 'YYYY-MM-DD' (or the date part of an ISO date-time) as a calendar date, with no time zone shift. */
function calendarDate(isoDate: string): Date | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(isoDate.trim());
  if (!match) return null;
  const [y, m, d] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(y, m - 1, d);
  if (date.getFullYear() !== y || date.getMonth() !== m - 1 || date.getDate() !== d) return null;
  return date;
}

/** spec 000 §9 'Do MMMM YYYY' ('1st May 2024'; in French '1er mai 2024'). */
const LONG_PATTERN: Record<Locale, string> = {
  "en-GB": "do MMMM yyyy",
  "en-CA": "do MMMM yyyy",
  "en-AU": "do MMMM yyyy",
  "fr-CA": "do MMMM yyyy",
};

/** The short date pattern in date-fns tokens, and as shown to users. */
const SHORT_PATTERN: Record<Locale, { tokens: string; shown: string; order: "dmy" | "ymd" }> = {
  "en-GB": { tokens: "dd/MM/yyyy", shown: "DD/MM/YYYY", order: "dmy" },
  "en-AU": { tokens: "dd/MM/yyyy", shown: "DD/MM/YYYY", order: "dmy" },
  "en-CA": { tokens: "yyyy-MM-dd", shown: "YYYY-MM-DD", order: "ymd" },
  "fr-CA": { tokens: "yyyy-MM-dd", shown: "YYYY-MM-DD", order: "ymd" },
};

/** A calendar date ('YYYY-MM-DD') in the locale's long or short form; '' when it cannot be read. */
export function formatDate(
  isoDate: string | null | undefined,
  locale: string = DEFAULT_LOCALE,
  style: "long" | "short" = "long",
): string {
  if (!isoDate) return "";
  const date = calendarDate(isoDate);
  if (!date) return "";
  const lng = localeOf(locale);
  const pattern = style === "long" ? LONG_PATTERN[lng] : SHORT_PATTERN[lng].tokens;
  return formatWithPattern(date, pattern, { locale: DATE_LOCALES[lng] });
}

/** The short date format shown to users, e.g. in 'Please enter a date in a valid format of DD/MM/YYYY'. */
export function shortDatePattern(locale: string = DEFAULT_LOCALE): string {
  return SHORT_PATTERN[localeOf(locale)].shown;
}

/**
 * spec 000 §5: a date typed by the user must parse strictly in the locale's short format. Day and
 * month must be two digits and the year four ('1/2/2020' is refused, as the hint shows 'DD/MM/YYYY'),
 * and the date must exist (31/02/2020 is refused). Answers 'YYYY-MM-DD' or null.
 */
export function parseShortDate(text: string | null | undefined, locale: string = DEFAULT_LOCALE): string | null {
  if (typeof text !== "string") return null;
  const value = text.trim();
  const order = SHORT_PATTERN[localeOf(locale)].order;
  const match = order === "dmy" ? /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(value) : /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return null;
  const [day, month, year] = order === "dmy" ? [match[1]!, match[2]!, match[3]!] : [match[3]!, match[2]!, match[1]!];
  if (Number(year) < 1000) return null;
  const iso = `${year}-${month}-${day}`;
  return calendarDate(iso) ? iso : null;
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
  return `${formatWithPattern(wallClock, "d MMM yyyy H:mm", { locale: DATE_LOCALES[lng] })} ${abbreviation}`;
}
