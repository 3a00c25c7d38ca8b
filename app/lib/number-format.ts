// One Intl formatter per locale and options (decision 124). Making an Intl.NumberFormat or
// DateTimeFormat costs far more than formatting with one, and the pages format hundreds of figures
// each (every holding's cells, every chart label): the same formatter is reused. Pure: shared by the
// server and the browser, so kept small. A constructor that throws (an unknown currency code)
// keeps nothing, so callers' fallbacks work as before.

// The portal's locales × the styles and currencies in use stay far below this.
const MAX_KEPT = 500;

/** `map`'s value for `key`, else `make()`'s, kept; at most MAX_KEPT kept, the oldest going first. */
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
const keyOf = (locale: string, options: object | undefined) => `${locale}\u0000${options ? JSON.stringify(options) : ""}`;

/** `new Intl.NumberFormat(locale, options)`, made once for the same locale and options. */
export function numberFormat(locale: string, options?: Intl.NumberFormatOptions): Intl.NumberFormat {
  return keptIn(numberFormats, keyOf(locale, options), () => new Intl.NumberFormat(locale, options));
}

/** `new Intl.DateTimeFormat(locale, options)`, made once for the same locale and options. */
export function dateTimeFormat(locale: string, options?: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  return keptIn(dateTimeFormats, keyOf(locale, options), () => new Intl.DateTimeFormat(locale, options));
}
