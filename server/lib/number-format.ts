// Decision 145 (after 124): an Intl number formatter costs far more to make than to use, so the
// platform's (the reports' money, units and prices) are made once per locale and options and kept,
// the least recently used going first past MAX_KEPT. The platform's own home for it: `server/`
// never imports the portal's app/lib/format.ts, which keeps the portal's.
import { LRUCache } from "lru-cache";

/** The most formatters kept (a locale and options each; the reports use a few per currency). */
export const MAX_KEPT = 500;

const kept = new LRUCache<string, Intl.NumberFormat>({ max: MAX_KEPT });

// The options are literals written in the code, so their keys come in one order for one call site.
const keyOf = (locale: string, options: Intl.NumberFormatOptions | undefined) =>
  `${locale}\u0000${options ? JSON.stringify(options) : ""}`;

/**
 * `new Intl.NumberFormat(locale, options)`, made once for the same locale and options. Options
 * Intl refuses (an unknown currency) throw as the constructor does, and nothing is kept.
 */
export function numberFormat(locale: string, options?: Intl.NumberFormatOptions): Intl.NumberFormat {
  const key = keyOf(locale, options);
  let format = kept.get(key);
  if (format === undefined) {
    format = new Intl.NumberFormat(locale, options);
    kept.set(key, format);
  }
  return format;
}

/** How many formatters are kept (tests). */
export const keptFormats = (): number => kept.size;
