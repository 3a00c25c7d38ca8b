// A date by a date-fns pattern in the locale's words (the charts' axes and tooltips), and the
// date-fns locales of the supported languages. The browser reaches this module only through the lazy
// chart chunk: modules in the first load must not import it, so date-fns stays out of it (decision
// 149). The server's dates are written by ./format-date.server.

import { format as formatWithPattern } from "date-fns/format";
import { enAU } from "date-fns/locale/en-AU";
import { enCA } from "date-fns/locale/en-CA";
import { enGB } from "date-fns/locale/en-GB";
import { frCA } from "date-fns/locale/fr-CA";
import type { Locale as DateFnsLocale } from "date-fns";
import { localeOf } from "./format";
import { DEFAULT_LOCALE, type Locale } from "./i18n";

const DATE_LOCALES: Record<Locale, DateFnsLocale> = {
  "en-GB": enGB,
  "en-CA": enCA,
  "en-AU": enAU,
  "fr-CA": frCA,
};

/**
 * A date by a date-fns pattern in the locale's words ('d MMM yyyy': '1 May 2024', '1 mai 2024'), read
 * by the Date's own getters (a `UTCDate` writes its UTC day).
 */
export function formatDatePattern(date: Date, pattern: string, locale: string = DEFAULT_LOCALE): string {
  return formatWithPattern(date, pattern, { locale: DATE_LOCALES[localeOf(locale)] });
}
