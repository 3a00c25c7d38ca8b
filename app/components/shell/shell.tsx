import { useTranslation } from "~/components/translation";
import { Toasts } from "~/components/toasts";
import { AnnouncementPanel } from "./announcement-panel";
import { CookieNotice } from "./cookie-notice";
import { useShellData } from "./root-data";
import { SignedInHeader, SignedOutHeader } from "./site-header";
import { SiteFooter } from "./site-footer";

/**
 * spec 000 §2 "Navigation": the page frame, rendered on the server and complete without
 * JavaScript. Order in the document: skip link, cookie notice, header, announcement, main, footer,
 * toasts.
 */
export function Shell({ children }: { children: React.ReactNode }) {
  const data = useShellData();
  const { t } = useTranslation();
  const user = data?.user ?? null;
  return (
    <div className="shell">
      <a className="skip-link" href="#main-content">
        {t("shell.skipToContent")}
      </a>
      {data && !data.cookieConsent ? <CookieNotice /> : null}
      {user && data?.navigation ? (
        <SignedInHeader user={user} navigation={data.navigation} unreadCount={data.unreadCount} brand={data.brand} />
      ) : (
        <SignedOutHeader brand={data?.brand ?? null} />
      )}
      {user && data?.announcement ? (
        <AnnouncementPanel key={data.announcement.hash} announcement={data.announcement} />
      ) : null}
      <main id="main-content" tabIndex={-1} className="shell__main">
        <div className="container">{children}</div>
      </main>
      <SiteFooter firmName={data?.brand.firmName ?? null} locale={data?.locale ?? null} />
      <Toasts toast={data?.toast ?? null} />
    </div>
  );
}
