import { RemixBrowser } from "@remix-run/react";
import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { preloadRenderedParts } from "./components/lazy-part";
import { TranslationProvider } from "./components/translation";
import { DEFAULT_LOCALE, toSupportedLocale } from "./lib/i18n";
import { createTranslator, type Texts } from "./lib/translator";

async function hydrate() {
  // The page's texts come from the server; the browser fetches its locale's texts once (cached by
  // version) so that enhanced components speak the same language.
  const locale = toSupportedLocale(document.documentElement.lang) ?? DEFAULT_LOCALE;
  const version = document.documentElement.dataset.localesVersion ?? "0";
  // The parts of the page that load apart (app/components/lazy-part.tsx) arrive meanwhile.
  const [response] = await Promise.all([
    fetch(`/locales/${locale}?v=${version}`, { credentials: "same-origin" }),
    preloadRenderedParts(),
  ]);
  const texts = response.ok ? ((await response.json()) as Texts) : {};
  // The server wrote 'Error: ' into the title of a page that shows errors (GOV.UK's pattern,
  // app/components/error-summary.tsx); the routes' `meta` render the title without it, and the
  // error summaries put it back once hydrated: the title is hydrated as the routes render it.
  const prefix = `${texts.common?.["form.errorPrefix"]} `;
  if (document.title.startsWith(prefix)) document.title = document.title.slice(prefix.length);

  startTransition(() => {
    hydrateRoot(
      document,
      <TranslationProvider translator={createTranslator(locale, texts)}>
        <StrictMode>
          <RemixBrowser />
        </StrictMode>
      </TranslationProvider>,
    );
  });
}

void hydrate();
