import { RemixBrowser } from "@remix-run/react";
import i18next from "i18next";
import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { I18nextProvider, initReactI18next } from "react-i18next";
import { DEFAULT_LOCALE, i18nConfig, toSupportedLocale } from "./lib/i18n";

async function hydrate() {
  // The page's texts come from the server; the browser fetches its locale's resources once
  // (cached by version) so that enhanced components speak the same language.
  const locale = toSupportedLocale(document.documentElement.lang) ?? DEFAULT_LOCALE;
  const version = document.documentElement.dataset.localesVersion ?? "0";
  const response = await fetch(`/locales/${locale}?v=${version}`, { credentials: "same-origin" });
  const resources = response.ok ? ((await response.json()) as Record<string, Record<string, string>>) : {};
  await i18next.use(initReactI18next).init({ ...i18nConfig, lng: locale, resources: { [locale]: resources } });

  startTransition(() => {
    hydrateRoot(
      document,
      <I18nextProvider i18n={i18next}>
        <StrictMode>
          <RemixBrowser />
        </StrictMode>
      </I18nextProvider>,
    );
  });
}

void hydrate();
