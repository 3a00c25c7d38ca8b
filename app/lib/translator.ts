// The texts of one locale, looked up the way the server's i18next looks them up (issue 16): the
// pages' components translate with this on the server and in the browser, so the browser needs no
// i18next (about 14 KiB gzipped of every first load) and both sides render the same words.
// translator.test.ts proves it gives i18next's answer for every text of every locale.
//
// What the portal's texts use, and so what this does: "namespace:key" or the `ns` option (no key
// separator), plurals by `count` (`_zero` for 0, then the locale's plural category, then the bare
// key, as i18next with Intl.PluralRules), `{{name}}` / `{{- name}}` interpolation without
// escaping (React escapes) and nesting: `$t(ns:key, {"name":"value"})` in a text, or as the key
// itself (validation messages with values, app/lib/client-search.ts), is that text translated with
// those values. A variable that is not given stays as written; one given as undefined or null is
// empty. A key that is missing answers itself, without its namespace.

/** The texts of one locale: namespace → key → text. */
export type Texts = Readonly<Record<string, Readonly<Record<string, string>>>>;

export type TranslateOptions = { ns?: string | readonly string[]; count?: number } & Record<string, unknown>;

export type Translate = (key: string, options?: TranslateOptions) => string;

export interface Translator {
  /** The locale, as i18next's `language` ("fr-CA"). */
  readonly language: string;
  readonly texts: Texts;
  /** Translates in the default namespace ("common") unless the key or options name another. */
  readonly t: Translate;
  /** A translate function whose default namespace is `ns`; the same function for the same `ns`. */
  fixedT(ns?: string): Translate;
  exists(key: string, options?: TranslateOptions): boolean;
}

const VARIABLE = /\{\{(.+?)\}\}/g;
const NESTING = /\$t\((.+?)\)/g;
const NESTING_PREFIX = "$t(";
const countNesting = (text: string) => text.split(NESTING_PREFIX).length - 1;

/** `{{name}}` replaced by the option of that name (unescaped); an unknown name stays as written. */
function interpolate(text: string, options: TranslateOptions | undefined): string {
  if (!text.includes("{{")) return text;
  return text.replace(VARIABLE, (match, inner: string) => {
    const name = (inner.startsWith("-") ? inner.slice(1) : inner).trim();
    if (!options || !Object.prototype.hasOwnProperty.call(options, name)) return match;
    const value = options[name];
    return value === undefined || value === null ? "" : String(value);
  });
}

/** Each `$t(key, {options})` in the text, translated with the options (and the outer ones). */
function nest(text: string, options: TranslateOptions | undefined, translate: Translate): string {
  if (!text.includes(NESTING_PREFIX)) return text;
  return text.replace(NESTING, (_match, inner: string) => {
    let key = inner.trim();
    let nested: TranslateOptions = { ...options };
    const separator = /,[ ]*\{/.exec(key);
    if (separator) {
      const json = `{${key.slice(separator.index + separator[0].length).split(/,[ ]*\{/)[0]}`;
      key = key.slice(0, separator.index);
      try {
        nested = { ...nested, ...(JSON.parse(json) as TranslateOptions) };
      } catch {
        return `${key},${json}`;
      }
    }
    return translate(key, nested);
  });
}

export function createTranslator(language: string, texts: Texts, defaultNs = "common"): Translator {
  const plurals = new Intl.PluralRules(language);

  function find(key: string, options: TranslateOptions | undefined, fixedNs: string): string | undefined {
    let namespaces: readonly string[];
    const colon = key.includes(NESTING_PREFIX) ? -1 : key.indexOf(":");
    if (colon >= 0) {
      namespaces = [key.slice(0, colon)];
      key = key.slice(colon + 1);
    } else if (options?.ns !== undefined) {
      namespaces = typeof options.ns === "string" ? [options.ns] : options.ns;
    } else {
      namespaces = [fixedNs];
    }
    const count: unknown = options?.count;
    // as i18next: any count but a string (null too, read as 0) picks a plural form
    const keys =
      count !== undefined && typeof count !== "string"
        ? [...(count === 0 ? [`${key}_zero`] : []), `${key}_${plurals.select(Number(count))}`, key]
        : [key];
    for (const ns of namespaces) {
      const table = texts[ns];
      if (!table) continue;
      for (const candidate of keys) {
        const text = table[candidate];
        if (text !== undefined) return text;
      }
    }
    return undefined;
  }

  const fixed = new Map<string, Translate>();
  function fixedT(ns: string = defaultNs): Translate {
    let translate = fixed.get(ns);
    if (!translate) {
      const t: Translate = (key, options) => {
        const found = find(key, options, ns);
        const text =
          found ?? (key.includes(NESTING_PREFIX) || !key.includes(":") ? key : key.slice(key.indexOf(":") + 1));
        const nestingBefore = countNesting(text);
        const interpolated = interpolate(text, options);
        // Values are never nested: a value that brings `$t(` leaves the text as interpolated.
        return countNesting(interpolated) > nestingBefore ? interpolated : nest(interpolated, options, t);
      };
      translate = t;
      fixed.set(ns, translate);
    }
    return translate;
  }

  return {
    language,
    texts,
    t: fixedT(defaultNs),
    fixedT,
    exists: (key, options) => find(key, options, defaultNs) !== undefined,
  };
}
