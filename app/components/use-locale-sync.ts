import { useEffect } from "react";
import type { Texts } from "~/lib/translator";
import { useSwitchLanguage, useTranslation } from "./translation";

/** Texts fetched in this page's life, by locale. */
const fetched = new Map<string, Texts>();

/**
 * The server decides the language of every page (the signed-in user's locale wins over the
 * visitor's choice). After a client-side navigation that changes it — signing in, say — the
 * browser loads that locale's texts and switches, so it never renders in the previous language.
 */
export function useLocaleSync(locale: string | undefined, version: string | undefined) {
  const { i18n } = useTranslation();
  const switchTo = useSwitchLanguage();
  useEffect(() => {
    if (!locale || i18n.language === locale) return;
    fetched.set(i18n.language, i18n.texts);
    let cancelled = false;
    void (async () => {
      let texts = fetched.get(locale);
      if (!texts) {
        const response = await fetch(`/locales/${locale}?v=${version ?? "0"}`, { credentials: "same-origin" });
        if (!response.ok || cancelled) return;
        texts = (await response.json()) as Texts;
        fetched.set(locale, texts);
      }
      if (!cancelled) switchTo(locale, texts);
    })();
    return () => {
      cancelled = true;
    };
  }, [locale, version, i18n, switchTo]);
}
