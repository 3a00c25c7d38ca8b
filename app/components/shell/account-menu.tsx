import { Form, Link, useLocation, useMatches, useNavigation } from "@remix-run/react";
import { lazy, Suspense, useEffect, useRef, useState } from "react";
import { useTranslation } from "~/components/translation";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { useHydrated } from "~/components/hydrated";
import type { NavigationEntry, PageKey } from "~/lib/navigation";

const LogoutDialog = lazy(() => import("./logout-dialog"));

/**
 * spec 000 §2 "Log out menu item": a page whose loader data has `confirmLogout: true` (the annual
 * review while in progress) makes log out ask first (docs/decisions/096).
 */
function useConfirmLogout(): boolean {
  return useMatches().some((match) => {
    const data = match.data as { confirmLogout?: unknown } | null | undefined;
    return typeof data === "object" && data !== null && data.confirmLogout === true;
  });
}

/**
 * With JavaScript the disclosure also closes after a navigation (`locationKey` changes), on Escape
 * (focus back on its summary) and on a press outside it.
 */
function useClosingDisclosure(ref: React.RefObject<HTMLDetailsElement>, locationKey: string) {
  // Only a change of location closes it: the first run is the hydration, and a menu opened before
  // the scripts arrived stays open (closing it then hid the item being pressed).
  const shownKey = useRef(locationKey);
  useEffect(() => {
    if (shownKey.current === locationKey) return;
    shownKey.current = locationKey;
    if (ref.current) ref.current.open = false;
  }, [ref, locationKey]);

  useEffect(() => {
    const details = ref.current;
    if (!details) return;
    function onKeyDown(event: KeyboardEvent) {
      if (event.key === "Escape" && details?.open) {
        details.open = false;
        details.querySelector("summary")?.focus();
      }
    }
    function onPointerDown(event: PointerEvent) {
      if (details?.open && event.target instanceof Node && !details.contains(event.target)) details.open = false;
    }
    details.addEventListener("keydown", onKeyDown);
    document.addEventListener("pointerdown", onPointerDown);
    return () => {
      details.removeEventListener("keydown", onKeyDown);
      document.removeEventListener("pointerdown", onPointerDown);
    };
  }, [ref]);
}

/**
 * spec 000 §2 'My Account' dropdown. A <details> disclosure: it opens and closes without
 * JavaScript, with the keyboard, and is announced as expandable. With JavaScript it also closes on
 * Escape, on a click elsewhere and after a navigation.
 *
 * spec 000 §2 "Log out menu item": while a review is in progress, Log out asks 'Changes you have
 * made will not be saved. Are you sure you want to log out?' first: with JavaScript in a dialog,
 * without it on the /logout confirmation page (the form's confirm=review and returnTo).
 */
export function AccountMenu({ entries, active }: { entries: NavigationEntry[]; active: PageKey | null }) {
  const { t } = useTranslation();
  const ref = useRef<HTMLDetailsElement>(null);
  const location = useLocation();
  const navigation = useNavigation();
  const loggingOut = navigation.state !== "idle" && navigation.formAction === "/logout";
  const confirmLogout = useConfirmLogout();
  const hydrated = useHydrated();
  const [confirming, setConfirming] = useState(false);

  useClosingDisclosure(ref, location.key);

  return (
    <nav className="account-menu" aria-label={t("nav.accountLabel")}>
      <details ref={ref} className="account-menu__details">
        <summary className="account-menu__summary">{t("nav.myAccount")}</summary>
        <div className="account-menu__panel">
          {entries.length ? (
            <ul className="account-menu__list">
              {entries.map((entry) => (
                <li key={entry.key}>
                  <Link
                    to={entry.href}
                    className="account-menu__link"
                    aria-current={active === entry.key ? "page" : undefined}
                  >
                    {t(entry.labelKey)}
                  </Link>
                </li>
              ))}
            </ul>
          ) : null}
          <Form method="post" action="/logout" className="account-menu__logout">
            <AuthenticityTokenInput />
            {confirmLogout ? (
              <>
                <input type="hidden" name="confirm" value="review" />
                <input type="hidden" name="returnTo" value={`${location.pathname}${location.search}`} />
              </>
            ) : null}
            <button
              type="submit"
              className="account-menu__link account-menu__button"
              disabled={loggingOut}
              data-no-heartbeat
              onClick={
                confirmLogout && hydrated
                  ? (event) => {
                      event.preventDefault();
                      setConfirming(true);
                    }
                  : undefined
              }
            >
              {loggingOut ? t("nav.loggingOut") : t("nav.logOut")}
            </button>
          </Form>
        </div>
      </details>
      {confirming ? (
        <Suspense fallback={null}>
          <LogoutDialog loggingOut={loggingOut} onClosed={() => setConfirming(false)} />
        </Suspense>
      ) : null}
    </nav>
  );
}
