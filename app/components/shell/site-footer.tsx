import { Form, Link, useLocation } from "@remix-run/react";
import { useTranslation } from "~/components/translation";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { HoneypotFields } from "~/components/honeypot-fields";
import { SUPPORTED_LOCALES } from "~/lib/i18n";

// spec 000 §2 "Site terms view and text pages": the core legal pages, under /core (decision 001).
const TEXT_PAGES = [
  { href: "/core/site-terms", labelKey: "footer.siteTerms" },
  { href: "/core/privacy-policy", labelKey: "footer.privacyPolicy" },
  { href: "/core/cookie-policy", labelKey: "footer.cookiePolicy" },
  { href: "/core/accessibility", labelKey: "footer.accessibility" },
] as const;

/**
 * `locale` is null when the root's own loader failed (its error page): the language chooser is left
 * out there, as its form could not be sent without the page's anti-forgery token.
 */
export function SiteFooter({ firmName, locale }: { firmName: string | null; locale: string | null }) {
  const { t } = useTranslation();
  return (
    <footer className="site-footer">
      <div className="container site-footer__inner">
        <nav aria-label={t("footer.linksLabel")} className="site-footer__nav">
          <ul className="site-footer__links">
            {TEXT_PAGES.map((page) => (
              <li key={page.href}>
                <Link to={page.href} className="site-footer__link">
                  {t(page.labelKey)}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        {locale ? <LanguageChooser locale={locale} /> : null}
        <p className="site-footer__firm">{t("footer.providedBy", { firmName: firmName ?? "Client Online" })}</p>
      </div>
    </footer>
  );
}

/**
 * The language chooser: a plain form with a button (choosing an option does not submit by itself,
 * WCAG 3.2.2). It reloads the whole document so that the browser's texts change language too.
 */
function LanguageChooser({ locale }: { locale: string }) {
  const { t } = useTranslation();
  const location = useLocation();
  return (
    <Form method="post" action="/locale" reloadDocument className="language-chooser">
      <AuthenticityTokenInput />
      {/* signed-out visitors use it: an anonymous form (decision 022) */}
      <HoneypotFields idSuffix="language-chooser" />
      <input type="hidden" name="redirectTo" value={`${location.pathname}${location.search}`} />
      <label htmlFor="language-chooser-select" className="language-chooser__label">
        {t("footer.language")}
      </label>
      <select id="language-chooser-select" name="lng" defaultValue={locale} className="language-chooser__select">
        {SUPPORTED_LOCALES.map((lng) => (
          // Each language is named in itself, so that a reader of it can find it.
          <option key={lng} value={lng} lang={lng}>
            {LANGUAGE_NAMES[lng]}
          </option>
        ))}
      </select>
      <button type="submit" className="button button--secondary button--small">
        {t("footer.changeLanguage")}
      </button>
    </Form>
  );
}

const LANGUAGE_NAMES: Record<(typeof SUPPORTED_LOCALES)[number], string> = {
  "en-GB": "English (UK)",
  "en-CA": "English (Canada)",
  "en-AU": "English (Australia)",
  "fr-CA": "Français (Canada)",
};
