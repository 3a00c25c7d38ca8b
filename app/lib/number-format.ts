// One Intl formatter per locale and options (decision 124). Making an Intl.NumberFormat or
// DateTimeFormat costs far more than formatting with one, and the pages format hundreds of figures
// each (every holding's cells, every chart label): the same formatter is reused. Pure: shared by the
// server and the browser. A constructor that throws (an unknown currency code) keeps nothing, so
// callers' fallbacks work as before.
import { BoundedCache } from "./bounded-cache";

// The portal's locales × the styles and currencies in use stay far below this.
const MAX_FORMATTERS = 500;

const numberFormats = new BoundedCache<string, Intl.NumberFormat>(MAX_FORMATTERS);
const dateTimeFormats = new BoundedCache<string, Intl.DateTimeFormat>(MAX_FORMATTERS);

// The options are literals written in the code, so their keys come in one order for one call site.
const keyOf = (locale: string, options: object | undefined) => `${locale}\u0000${options ? JSON.stringify(options) : ""}`;

/** `new Intl.NumberFormat(locale, options)`, made once for the same locale and options. */
export function numberFormat(locale: string, options?: Intl.NumberFormatOptions): Intl.NumberFormat {
  return numberFormats.getOrSet(keyOf(locale, options), () => new Intl.NumberFormat(locale, options));
}

/** `new Intl.DateTimeFormat(locale, options)`, made once for the same locale and options. */
export function dateTimeFormat(locale: string, options?: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  return dateTimeFormats.getOrSet(keyOf(locale, options), () => new Intl.DateTimeFormat(locale, options));
}
