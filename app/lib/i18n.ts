// Shared by the server and the browser: the locales and namespaces the portal speaks.
export const SUPPORTED_LOCALES = ["en-GB", "en-CA", "en-AU", "fr-CA"] as const;
export type Locale = (typeof SUPPORTED_LOCALES)[number];
export const DEFAULT_LOCALE: Locale = "en-GB";
export const NAMESPACES = [
  "common",
  "auth",
  "clients",
  "advisers",
  "recovery",
  "security",
  "session",
  "compose",
  "messages",
  "review",
  "notifications",
  "reports",
] as const;

export const i18nConfig = {
  supportedLngs: [...SUPPORTED_LOCALES],
  fallbackLng: DEFAULT_LOCALE,
  // Translations exist per full locale only ('fr-CA', never 'fr'): no lookups or downloads of the
  // bare language (and fewer language codes worked out per translation, issue 16).
  load: "currentOnly" as const,
  defaultNS: "common",
  ns: [...NAMESPACES],
  // Keys are full words; i18next must not split them on dots or colons inside the text.
  keySeparator: false as const,
  nsSeparator: ":" as const,
  interpolation: { escapeValue: false },
  react: { useSuspense: false },
};

/** Matches what the platform or a browser sends ("en-gb", "fr_CA", "fr") to a supported locale. */
export function toSupportedLocale(value: string | null | undefined): Locale | null {
  if (!value) return null;
  const normalised = value.trim().replace("_", "-").toLowerCase();
  const exact = SUPPORTED_LOCALES.find((l) => l.toLowerCase() === normalised);
  if (exact) return exact;
  const language = normalised.split("-")[0];
  if (language === "fr") return "fr-CA";
  if (language === "en") return DEFAULT_LOCALE;
  return null;
}
