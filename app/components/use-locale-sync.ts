import { useEffect } from "react";
import { useTranslation } from "react-i18next";

/**
 * The server decides the language of every page (the signed-in user's locale wins over the
 * visitor's choice). After a client-side navigation that changes it — signing in, say — the
 * browser loads that locale's texts and switches, so it never renders in the previous language.
 */
export function useLocaleSync(locale: string | undefined, version: string | undefined) {
  const { i18n } = useTranslation();
  useEffect(() => {
    if (!locale || i18n.language === locale) return;
    let cancelled = false;
    void (async () => {
      if (!i18n.hasResourceBundle(locale, "common")) {
        const response = await fetch(`/locales/${locale}?v=${version ?? "0"}`, { credentials: "same-origin" });
        if (!response.ok || cancelled) return;
        const resources = (await response.json()) as Record<string, Record<string, string>>;
        for (const [ns, texts] of Object.entries(resources)) i18n.addResourceBundle(locale, ns, texts, true, true);
      }
      if (!cancelled) await i18n.changeLanguage(locale);
    })();
    return () => {
      cancelled = true;
    };
  }, [locale, version, i18n]);
}
