import { Form, useLocation } from "@remix-run/react";
import { useTranslation } from "~/components/translation";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import type { Announcement } from "~/lib/announcement";

/**
 * spec 002 §2 "Notification and postponement panels" and §4 "Announcement and cookie notice": the
 * announcement from the site's content, with a close control and a 'Don't show this again' tick.
 * The close posts and comes back to the same page, without the panel (with JavaScript, without
 * reloading it); a plain form keeps the shell's first load small (docs/decisions/096).
 */
export function AnnouncementPanel({ announcement }: { announcement: Announcement }) {
  const { t } = useTranslation();
  const location = useLocation();
  const titleId = "announcement-title";
  return (
    <section className="announcement" aria-labelledby={titleId}>
      <div className="container announcement__inner">
        <div className="announcement__text">
          <h2 id={titleId} className="announcement__title">
            {announcement.title}
          </h2>
          {/* the content's HTML, sanitised by the root loader */}
          <div className="prose" dangerouslySetInnerHTML={{ __html: announcement.html }} />
        </div>
        <Form method="post" action="/announcement" className="announcement__form" preventScrollReset>
          <AuthenticityTokenInput />
          <input type="hidden" name="hash" value={announcement.hash} />
          <input type="hidden" name="redirectTo" value={`${location.pathname}${location.search}`} />
          <div className="checkbox announcement__tick">
            <input type="checkbox" id="announcement-dont-show" name="dontShowAgain" value="yes" />
            <label htmlFor="announcement-dont-show">{t("announcement.dontShowAgain")}</label>
          </div>
          <button type="submit" className="button button--secondary">
            {t("announcement.close")}
          </button>
        </Form>
      </div>
    </section>
  );
}
