import { logger } from "~/runtime/logger.server";
import { type FeatureToggles, isToggleOn } from "./feature-toggles.server";
import type { Locale } from "~/lib/i18n";
import type { Site } from "./site.server";
import { siteNames, type Worded } from "~/lib/site-words";

// The documents and messages area as the platform configures it (docs/platform-api.md "Documents
// and messages", docs/decisions/080): the site's settings and the feature toggles, read once here
// for the messages page, the attachment download and the home's important panel.

export type MessagesSettings = {
  heading: string | null;
  inboxName: string | null;
  /** `lang` is "en" for a name that is the site's English one on a page in another language. */
  customFolders: Array<{ name: string; codes: string[]; lang: "en" | null }>;
  importantCategoryId: number | null;
  attachmentsDownloadable: boolean;
  /** A document type's name in the page's language, or marked English (decision 210). */
  typeName?: (english: string) => Worded;
};

function settingText(value: unknown): string | null {
  return typeof value === "string" && value.trim() ? value.trim() : null;
}

/** The site writes its plain settings in its own language, English (spec 002 §1: default locale en-gb). */
const SITE_LANGUAGE = "en";
const inSiteLanguage = (locale: Locale) => locale.split("-")[0] === SITE_LANGUAGE;

/**
 * A text setting for a page in `locale` (issue 25 item 3, docs/decisions/119): the locale's own
 * variant `key.<locale>` (as decision 028), else the plain `key`, which is in the site's language.
 * `foreign` says the text is the plain one on a page in another language.
 */
function pageSetting(s: Site["settings"], key: string, locale: Locale): { value: unknown; foreign: boolean } {
  const own = s[`${key}.${locale}`];
  if (typeof own === "string" && own.trim()) return { value: own, foreign: false };
  return { value: s[key], foreign: !inSiteLanguage(locale) };
}

function folderList(raw: unknown): Array<{ name: string; codes: string[] }> {
  if (typeof raw !== "string" || !raw.trim()) return [];
  try {
    const parsed: unknown = JSON.parse(raw);
    if (!Array.isArray(parsed)) return [];
    return parsed.flatMap((f: unknown) => {
      if (!f || typeof f !== "object") return [];
      const { name, documentNoteTypes } = f as { name?: unknown; documentNoteTypes?: unknown };
      const codes = Array.isArray(documentNoteTypes)
        ? documentNoteTypes.filter((c): c is string => typeof c === "string" && c !== "")
        : [];
      return typeof name === "string" && name.trim() && codes.length ? [{ name: name.trim(), codes }] : [];
    });
  } catch {
    logger.error("site setting messageFolders is not JSON; no custom folders");
    return [];
  }
}

/**
 * The page's site settings (docs/platform-api.md "Documents and messages"), with their defaults, for
 * a page in `locale`. The heading and the inbox's name replace the portal's own texts only in the
 * page's language: on a French page without French variants the portal's French texts stay. A
 * custom folder's name has no text of the portal's to fall back to: an English one is marked so.
 */
export function messagesSettings(site: Site, locale: Locale): MessagesSettings {
  const s = site.settings;
  const heading = pageSetting(s, "messagesHeading", locale);
  const inbox = pageSetting(s, "inboxName", locale);
  const folders = pageSetting(s, "messageFolders", locale);
  const important = Number(s.importantCategoryId);
  return {
    heading: heading.foreign ? null : settingText(heading.value),
    inboxName: inbox.foreign ? null : settingText(inbox.value),
    customFolders: folderList(folders.value)
      .slice(0, 20)
      .map((f) => ({ ...f, lang: folders.foreign ? SITE_LANGUAGE : null })),
    importantCategoryId:
      s.importantCategoryId !== null && s.importantCategoryId !== "" && Number.isInteger(important) && important > 0
        ? important
        : null,
    attachmentsDownloadable: !(s.attachmentsDownloadable === false || s.attachmentsDownloadable === "false"),
    typeName: siteNames(s, "documentTypeNames", locale),
  };
}

export type MessagesToggles = {
  digitalSignatures: boolean;
  relatedEntities: boolean;
  oneWay: boolean;
  documentTypeFilter: boolean;
};

export function messagesToggles(toggles: FeatureToggles): MessagesToggles {
  const on = (name: string) => isToggleOn(toggles, name);
  return {
    digitalSignatures: on("digital_signatures"),
    relatedEntities: on("related_entities"),
    oneWay: on("one_way_messaging"),
    documentTypeFilter: on("document_type_filter"),
  };
}

/** spec 002 §4: 'Attachments can be downloaded via Xplan' when the site says they cannot be. */
export function attachmentsDownloadable(site: Site): boolean {
  return !(site.settings.attachmentsDownloadable === false || site.settings.attachmentsDownloadable === "false");
}
