import type { LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import type { RootData } from "~/components/shell/root-data";
import { faviconOf, loginBackgroundOf } from "~/lib/site-settings";
import { navigationFor } from "~/lib/navigation";
import { darkChartColour, themeOf } from "~/lib/theme";
import { printedOn } from "~/lib/print.server";
import { localesVersion } from "~/locales/version.server";
import { maintenanceRedirect } from "~/planning/maintenance.server";
import { valuationReportOffered } from "~/planning/reports.server";
import { getSite } from "~/planning/site.server";
import { unreadCount } from "~/planning/unread.server";
import { announcementFor } from "~/session/announcement.server";
import { readCookieConsent } from "~/session/cookie-consent.server";
import { csrf, honeypot } from "~/session/csrf.server";
import { resolveLocale, translatorFor } from "~/session/i18next.server";
import { ERROR_TITLE_KEYS, type ErrorTitles } from "~/lib/error-title";
import { getPortalSession, remainingIdleMs } from "~/session/session.server";
import { readToast } from "~/session/toast.server";

// The root's loader: what the shell shows on every page (the user, the menus, the brand, the
// session's timing, the announcement). In a module of its own so that the browser's first load of
// every page carries none of the server modules it calls (decision 148).

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
      theme: themeOf(user?.theme),
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
        darkChartColours: site.chartColours.map(darkChartColour),
        // spec 000 §3: the site's favicon and login background (docs/decisions/028)
        favicon: faviconOf(site.settings),
        loginBackground: loginBackgroundOf(site.settings),
      },
      navigation,
      // spec 000 §2 unread badge: the shell shows '(n)' up to 20, then '(20+)'; null shows none.
      unreadCount: unread,
      announcement,
      printedOn: user ? printedOn(locale) : null,
      errorTitles: errorTitlesIn(locale),
    },
    { headers },
  );
}

/** An error page's title in the page's language: the boundary's headings (app/lib/error-title.ts). */
function errorTitlesIn(locale: RootData["locale"]): ErrorTitles {
  const t = translatorFor(locale).fixedT("common");
  return Object.fromEntries(Object.entries(ERROR_TITLE_KEYS).map(([kind, key]) => [kind, t(key)])) as ErrorTitles;
}
