// Texts the platform holds, in the page's language (issue 40, WCAG 3.1.2; docs/decisions/210). The
// site writes its plain settings and its lists' names in its own language, English (spec 002 §1:
// default locale en-gb), and may give a locale its own: a text setting's variant `key.<locale>`
// (decisions 028 and 119), and for a list a setting `<list>.<locale>` whose value is a JSON object
// from each English name to the locale's. A page in an English locale shows the English as it is; a
// page in another language shows the locale's own text, and where the site has none, the English
// marked `lang="en"`, so that a screen reader speaks it as English.

import type { Locale } from "./i18n";

type Settings = Record<string, unknown>;

/** A text as shown: its words and, when they are not in the page's language, theirs. */
export type Worded = { text: string; lang: "en" | null };

/** The lists whose names the site may give per locale. */
export type NamedList =
  | "securityQuestions"
  | "assetClassNames"
  | "sectorNames"
  | "regionNames"
  | "documentTypeNames"
  | "benchmarkNames"
  | "reportTemplateNames";

const SITE_LANGUAGE = "en";

/** Whether the page's language is the site's own (every English locale). */
export const inSiteLanguage = (locale: Locale | string): boolean => locale.split("-")[0] === SITE_LANGUAGE;

// The parsed names of a list's setting, kept per setting text (the site's settings change rarely).
const parsed = new Map<string, ReadonlyMap<string, string>>();

function namesOf(value: unknown): ReadonlyMap<string, string> {
  if (typeof value !== "string" || !value.trim()) return new Map();
  let names = parsed.get(value);
  if (names) return names;
  names = new Map();
  try {
    const object: unknown = JSON.parse(value);
    if (object && typeof object === "object" && !Array.isArray(object))
      for (const [english, own] of Object.entries(object))
        if (typeof own === "string" && own.trim()) (names as Map<string, string>).set(english.trim(), own.trim());
  } catch {
    // a setting that is not a JSON object names nothing: the English is shown, marked
  }
  if (parsed.size >= 50) parsed.clear();
  parsed.set(value, names);
  return names;
}

/**
 * The names of one of the site's lists in the page's language: a function from the English name
 * (as the platform answers it) to the name shown.
 */
export function siteNames(settings: Settings, list: NamedList, locale: Locale): (english: string) => Worded {
  if (inSiteLanguage(locale)) return (english) => ({ text: english, lang: null });
  const names = namesOf(settings[`${list}.${locale}`]);
  return (english) => {
    const own = names.get(english.trim());
    return own ? { text: own, lang: null } : { text: english, lang: SITE_LANGUAGE };
  };
}

/**
 * A text setting in the page's language: the locale's own variant `key.<locale>`, else the plain
 * text, marked English on a page in another language; null when the site gives none.
 */
export function siteText(settings: Settings, key: string, locale: Locale): Worded | null {
  const own = settings[`${key}.${locale}`];
  if (typeof own === "string" && own.trim()) return { text: own.trim(), lang: null };
  const plain = settings[key];
  if (typeof plain !== "string" || !plain.trim()) return null;
  return { text: plain.trim(), lang: inSiteLanguage(locale) ? null : SITE_LANGUAGE };
}

/** Text from the platform's records that is never translated (narratives, securities' names): English. */
export function recordsText(text: string, locale: Locale): Worded {
  return { text, lang: inSiteLanguage(locale) ? null : SITE_LANGUAGE };
}
