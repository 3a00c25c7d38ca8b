import { Link, useFetcher, useLocation } from "@remix-run/react";
import { useTranslation } from "~/components/translation";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { useHydrated } from "~/components/hydrated";
import { HoneypotFields } from "~/components/honeypot-fields";

/**
 * spec 000 §2 "Global cookie notice": shown until accepted. Without JavaScript, Accept posts and
 * comes back to the same page; with it, a fetcher posts and the notice goes at once.
 */
export function CookieNotice() {
  const { t } = useTranslation();
  const fetcher = useFetcher<{ accepted: boolean }>();
  const location = useLocation();
  const hydrated = useHydrated();
  if (fetcher.state !== "idle" || fetcher.data?.accepted) return null;
  return (
    <section className="cookie-notice" aria-labelledby="cookie-notice-title">
      <div className="container cookie-notice__inner">
        <div className="cookie-notice__text">
          <h2 id="cookie-notice-title" className="cookie-notice__title">
            {t("cookies.title")}
          </h2>
          <p>{t("cookies.text")}</p>
          <p>
            <Link to="/core/cookie-policy">{t("cookies.policyLink")}</Link>
          </p>
        </div>
        <fetcher.Form method="post" action="/cookie-consent" className="cookie-notice__form">
          <AuthenticityTokenInput />
          {/* signed-out visitors use it: an anonymous form (decision 022) */}
          <HoneypotFields idSuffix="cookie-notice" />
          <input type="hidden" name="redirectTo" value={`${location.pathname}${location.search}`} />
          {hydrated ? <input type="hidden" name="inline" value="true" /> : null}
          <button type="submit" className="button">
            {t("cookies.accept")}
          </button>
        </fetcher.Form>
      </div>
    </section>
  );
}
