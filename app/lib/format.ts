// Money, numbers and the short date format as the user reads and types them (spec 000 §9). Pure:
// shared by the server and the browser. Nothing here imports date-fns: this module is in the first
// load of every page, and a date-fns function used by any browser chunk would join it there
// (decision 149). Dates in words are written by ./format-date.server (the server's pages) and
// ./format-date (the charts, in the lazy chart chunk).

import { calendarDayIso } from "./calendar-day";
import { DEFAULT_LOCALE, type Locale, toSupportedLocale } from "./i18n";

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

/** A supported locale for any locale name (the default for unknown ones). */
export function localeOf(locale: string | null | undefined): Locale {
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

/** The short date pattern in date-fns tokens, and as shown to users. */
export const SHORT_DATE_PATTERNS: Record<Locale, { tokens: string; shown: string; order: "dmy" | "ymd" }> = {
  "en-GB": { tokens: "dd/MM/yyyy", shown: "DD/MM/YYYY", order: "dmy" },
  "en-AU": { tokens: "dd/MM/yyyy", shown: "DD/MM/YYYY", order: "dmy" },
  "en-CA": { tokens: "yyyy-MM-dd", shown: "YYYY-MM-DD", order: "ymd" },
  "fr-CA": { tokens: "yyyy-MM-dd", shown: "YYYY-MM-DD", order: "ymd" },
};

/** The short date format shown to users, e.g. in 'Please enter a date in a valid format of DD/MM/YYYY'. */
export function shortDatePattern(locale: string = DEFAULT_LOCALE): string {
  return SHORT_DATE_PATTERNS[localeOf(locale)].shown;
}

/**
 * spec 000 §5: a date typed by the user must parse strictly in the locale's short format. Day and
 * month must be two digits and the year four ('1/2/2020' is refused, as the hint shows 'DD/MM/YYYY'),
 * and the date must exist (31/02/2020 is refused). Answers 'YYYY-MM-DD' or null.
 */
export function parseShortDate(text: string | null | undefined, locale: string = DEFAULT_LOCALE): string | null {
  if (typeof text !== "string") return null;
  const value = text.trim();
  const order = SHORT_DATE_PATTERNS[localeOf(locale)].order;
  const match = order === "dmy" ? /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(value) : /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return null;
  const [day, month, year] = order === "dmy" ? [match[1]!, match[2]!, match[3]!] : [match[3]!, match[2]!, match[1]!];
  if (Number(year) < 1000) return null;
  return calendarDayIso(Number(year), Number(month), Number(day));
}
