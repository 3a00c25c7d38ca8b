import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Links, Meta, Outlet, Scripts, ScrollRestoration, type ShouldRevalidateFunction } from "@remix-run/react";
import { lazy, Suspense } from "react";
import { useTranslation } from "~/components/translation";
import { useHydrated } from "remix-utils/use-hydrated";
import { AuthenticityTokenProvider } from "remix-utils/csrf/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { useNonce } from "~/components/nonce";
import sessionTimeoutStyles from "~/components/session-timeout.css";
import { useLocaleSync } from "~/components/use-locale-sync";
import { type RootData, useShellData } from "~/components/shell/root-data";
import { Shell } from "~/components/shell/shell";
import { resolveLocale } from "./session/i18next.server";
import { readCookieConsent } from "./session/cookie-consent.server";
import { announcementFor } from "./session/announcement.server";
import { maintenanceRedirect } from "./planning/maintenance.server";
import { unreadCount } from "./planning/unread.server";
import { valuationReportOffered } from "./planning/reports.server";
import { navigationFor } from "~/lib/navigation";
import { DEFAULT_FAVICON, faviconOf, loginBackgroundOf, loginBackgroundProperties } from "~/lib/site-settings";
import { localesVersion } from "~/locales/version.server";
import { getSite } from "~/planning/site.server";
import { csrf, honeypot } from "~/session/csrf.server";
import { getPortalSession, remainingIdleMs } from "~/session/session.server";
import { readToast } from "~/session/toast.server";
import appStyles from "~/styles/app.css";
import { printedOn } from "~/lib/print.server";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: appStyles },
  { rel: "stylesheet", href: sessionTimeoutStyles },
];

export async function loader({ request }: LoaderFunctionArgs) {
  const locale = await resolveLocale(request);
  const [maintenance, session, site, toast, [csrfToken, csrfCookie], honeypotInputProps, cookieConsent] =
    await Promise.all([
      // spec 000 §4 "Maintenance": every page but a few goes to the maintenance page (decision 061).
      maintenanceRedirect(request),
      getPortalSession(request),
      getSite(locale),
      readToast(request),
      csrf.commitToken(request),
      honeypot.getInputProps(),
      readCookieConsent(request),
    ]);
  if (maintenance) throw maintenance;
  const headers = new Headers(toast.headers);
  if (csrfCookie) headers.append("Set-Cookie", csrfCookie);
  const user = session?.user ?? null;
  // spec 000 §2 unread badge: clients only, one call; a failure shows no badge
  const viewedLevel =
    user?.role === "ClientUser" ? user.siteAccessLevel : (user?.clientInContext?.siteAccessLevel ?? null);
  const viewedClient = user?.role === "ClientUser" ? user.entityId : (user?.clientInContext?.entityId ?? null);
  const [unread, reports, announcement] = await Promise.all([
    session && user?.role === "ClientUser" ? unreadCount(session.token, new URL(request.url)) : null,
    // spec 000 §2: the valuation report entry's rule (Portfolio or Assets only)
    session && viewedClient !== null && (viewedLevel === "Portfolio" || viewedLevel === "Assets")
      ? valuationReportOffered(session.token, viewedClient).catch(() => null)
      : null,
    // spec 002 §2: the announcement panel for the Messages and Not Assigned levels (decision 096)
    announcementFor(request, user, site.pages),
  ]);
  // spec 000 §2 "Navigation": the menus the shell shows (only pages built so far, see AVAILABLE_PAGES).
  const navigation = user
    ? navigationFor({
        role: user.role,
        hasClientInContext: Boolean(user.clientInContext),
        siteAccessLevel: viewedLevel,
        locale,
        loginMethod: user.loginMethod,
        clientReportsEnabled: reports?.clientReportsEnabled ?? false,
        hasReportTemplate: reports?.hasReportTemplate ?? false,
        hasPasskey: Boolean(user.hasPasskey),
      })
    : null;
  return json<RootData>(
    {
      locale,
      localesVersion,
      csrfToken,
      honeypotInputProps,
      toast: toast.toast,
      user,
      idleMinutes: session?.idleMinutes ?? null,
      // spec 000 §4 "Session timeout": what the browser's warning needs (decision 060).
      sessionTimeout: session
        ? { idleMinutes: session.idleMinutes, remainingMs: remainingIdleMs(session), checkedAt: Date.now() }
        : null,
      cookieConsent,
      brand: {
        firmName: site.firmName,
        logo: site.logo,
        chartColours: site.chartColours,
        // spec 000 §3: the site's favicon and login background (docs/decisions/028)
        favicon: faviconOf(site.settings),
        loginBackground: loginBackgroundOf(site.settings),
      },
      navigation,
      // spec 000 §2 unread badge: the shell shows '(n)' up to 20, then '(20+)'; null shows none.
      unreadCount: unread,
      announcement,
      printedOn: user ? printedOn(locale) : null,
    },
    { headers },
  );
}

// The root loader runs on every navigation (not only when its own URL changes): it is where the
// maintenance check lives, and its answer restarts the session-timeout timers (decisions 060, 061).
export const shouldRevalidate: ShouldRevalidateFunction = () => true;

export function Layout({ children }: { children: React.ReactNode }) {
  const data = useShellData();
  useLocaleSync(data?.locale, data?.localesVersion);
  const nonce = useNonce();
  const { i18n } = useTranslation();
  const locale = data?.locale ?? i18n.language ?? "en-GB";
  // Brand values arrive as CSS custom properties on <html>; app.css uses them (the login
  // background by screen width in its media queries), so the page needs no style element.
  const brandStyle = {
    ...Object.fromEntries((data?.brand.chartColours ?? []).map((colour, i) => [`--chart-colour-${i + 1}`, colour])),
    ...(data?.brand.loginBackground ? loginBackgroundProperties(data.brand.loginBackground) : {}),
  } as React.CSSProperties;
  const favicon = data?.brand.favicon ?? DEFAULT_FAVICON;
  return (
    <html lang={locale} data-locales-version={data?.localesVersion} style={brandStyle}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <Meta />
        <Links />
        <link rel="icon" href={favicon.href} type={favicon.type} />
      </head>
      <body>
        {children}
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

function Providers({ children }: { children: React.ReactNode }) {
  const data = useShellData();
  return <AuthenticityTokenProvider token={data?.csrfToken ?? ""}>{children}</AuthenticityTokenProvider>;
}

// spec 000 §4 "Session timeout" works with JavaScript only (decision 060): its code is fetched once
// the page is interactive, so that no first load carries it.
const SessionTimeout = lazy(() => import("~/components/session-timeout"));

function SessionTimeoutWhenHydrated() {
  const data = useShellData();
  const hydrated = useHydrated();
  if (!hydrated || !data?.user || !data.sessionTimeout) return null;
  return (
    <Suspense fallback={null}>
      <SessionTimeout {...data.sessionTimeout} />
    </Suspense>
  );
}

export default function App() {
  return (
    <Providers>
      <Shell>
        <Outlet />
      </Shell>
      <SessionTimeoutWhenHydrated />
    </Providers>
  );
}

export const meta: MetaFunction = () => [{ title: "Client Online" }];

export function ErrorBoundary() {
  // The shell's forms (log out, language, cookies) need the CSRF token here too.
  return (
    <Providers>
      <Shell>
        <GeneralErrorBoundary />
      </Shell>
      <SessionTimeoutWhenHydrated />
    </Providers>
  );
}
