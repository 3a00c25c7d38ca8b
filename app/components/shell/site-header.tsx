import { Link, useLocation, useMatches, useNavigate } from "@remix-run/react";
import { useEffect } from "react";
import { useTranslation } from "~/components/translation";
import { mobileBackHref, stepsBackInHistory } from "~/lib/mobile-back";
import { activeEntry, homePathFor, type Navigation, unreadBadge } from "~/lib/navigation";
import { AccountMenu } from "./account-menu";
import { PrintPageRules } from "./print-page-rules";
import { FALLBACK_LOGO, type ShellData, type ShellUser } from "./root-data";

type Brand = ShellData["brand"];

function Logo({ brand, href }: { brand: Brand | null; href: string }) {
  const { t } = useTranslation();
  return (
    <Link to={href} className="brand">
      <img
        className="brand__logo"
        src={brand?.logo || FALLBACK_LOGO}
        alt={t("shell.logoHome")}
        width={184}
        height={40}
      />
    </Link>
  );
}

/** Signed-out pages (login and its steps, text pages): the logo and nothing to navigate. */
export function SignedOutHeader({ brand }: { brand: Brand | null }) {
  return (
    <header className="site-header">
      <div className="main-bar">
        <div className="container main-bar__inner">
          <Logo brand={brand} href="/login" />
        </div>
      </div>
    </header>
  );
}

/** The browser history's entries visited in this page session, by their index (kept in memory only). */
const visitedByIndex = new Map<number, string>();

function historyIndex(): number | null {
  const idx = (window.history.state as { idx?: unknown } | null)?.idx;
  return typeof idx === "number" ? idx : null;
}

/**
 * spec 000 §2 "Main bar": the mobile Back button (shown on small screens). Without JavaScript a link
 * to the page's previous level (its loader's `backHref`) or the clients home; with it, a step back
 * in the history when the entry before is an earlier state of the same page (an account filter).
 */
function MobileBack({ siteAccessLevel }: { siteAccessLevel: unknown }) {
  const { t } = useTranslation();
  const location = useLocation();
  const navigate = useNavigate();
  const matches = useMatches();
  const data = [...matches].reverse().find((m) => m.data && typeof m.data === "object" && "backHref" in m.data)
    ?.data as { backHref?: unknown } | undefined;
  const href = mobileBackHref(location.pathname, data?.backHref, siteAccessLevel);
  const current = `${location.pathname}${location.search}`;
  useEffect(() => {
    const idx = historyIndex();
    if (idx !== null) visitedByIndex.set(idx, current);
  }, [current]);
  if (!href) return null;
  const stepBack = (event: React.MouseEvent<HTMLAnchorElement>) => {
    const idx = historyIndex();
    if (idx === null || idx < 1 || !stepsBackInHistory(current, visitedByIndex.get(idx - 1))) return;
    event.preventDefault();
    navigate(-1);
  };
  return (
    <Link to={href} className="mobile-back" onClick={stepBack}>
      <svg width="10" height="16" viewBox="0 0 10 16" aria-hidden="true" focusable="false">
        <path d="M8 2L2 8l6 6" fill="none" stroke="currentColor" strokeWidth="2" />
      </svg>
      {t("nav.back")}
    </Link>
  );
}

type SignedInProps = {
  user: ShellUser;
  navigation: Navigation;
  unreadCount: number | null;
  brand: Brand;
};

/**
 * spec 000 §2 "Navigation". The top bar carries who is being viewed and the My Account menu; the
 * main bar carries the logo and the page menu with its active state (decision 020).
 */
export function SignedInHeader({ user, navigation, unreadCount, brand }: SignedInProps) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const active = activeEntry([...navigation.main, ...navigation.account], pathname);
  const badge = unreadBadge(unreadCount, user.role);
  const viewing = user.role === "User" ? user.clientInContext : null;
  return (
    <header className="site-header">
      <PrintPageRules name={viewing ? viewing.displayName : user.displayName} />
      <div className="top-bar">
        <div className="container top-bar__inner">
          {viewing ? (
            <p className="top-bar__viewing">
              <Link to={viewing.listUrl ?? "/advisers/clients"} className="top-bar__link">
                {t("nav.viewingClient", { name: viewing.displayName })}
              </Link>
              {viewing.isPreviewMode ? <span className="badge badge--inverse">{t("nav.previewMode")}</span> : null}
            </p>
          ) : (
            <p className="top-bar__greeting">{t("nav.signedInAs", { name: user.displayName })}</p>
          )}
          <AccountMenu entries={navigation.account} active={active} />
        </div>
      </div>
      <div className="main-bar">
        <div className="container main-bar__inner">
          {user.role === "ClientUser" || user.clientInContext ? (
            <MobileBack
              siteAccessLevel={
                user.role === "ClientUser" ? user.siteAccessLevel : user.clientInContext?.siteAccessLevel
              }
            />
          ) : null}
          <Logo brand={brand} href={homePathFor(user)} />
          {navigation.main.length ? (
            <nav className="main-nav" aria-label={t("nav.mainLabel")}>
              <ul className="main-nav__list">
                {navigation.main.map((entry) => (
                  <li key={entry.key} className="main-nav__item">
                    <Link
                      to={entry.href}
                      className="main-nav__link"
                      aria-current={active === entry.key ? "page" : undefined}
                    >
                      {t(entry.labelKey)}
                      {entry.key === "documentsAndMessages" && badge ? (
                        <span className="badge badge--count">
                          {badge}
                          <span className="visually-hidden"> {t("nav.unread")}</span>
                        </span>
                      ) : null}
                    </Link>
                  </li>
                ))}
              </ul>
            </nav>
          ) : null}
        </div>
      </div>
    </header>
  );
}
