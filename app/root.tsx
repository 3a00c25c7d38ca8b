import type { LinksFunction, MetaFunction } from "@remix-run/node";
import {
  Links,
  LiveReload,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  type ShouldRevalidateFunction,
  useRouteError,
} from "@remix-run/react";
import { lazy, Suspense } from "react";
import { useTranslation } from "~/components/translation";
import { HydratedProvider, useHydrated } from "~/components/hydrated";
import { AuthenticityTokenProvider } from "remix-utils/csrf/react";
import { GeneralErrorBoundary } from "~/components/error-boundary";
import { useNonce } from "~/components/nonce";
import sessionTimeoutStyles from "~/components/session-timeout.css";
import { useLocaleSync } from "~/components/use-locale-sync";
import { useShellData } from "~/components/shell/root-data";
import { Shell } from "~/components/shell/shell";
import { DEFAULT_FAVICON, loginBackgroundProperties } from "~/lib/site-settings";
import appStyles from "~/styles/app.css";
import { errorPageTitle, rootFailureTitle } from "~/lib/error-title";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: appStyles },
  { rel: "stylesheet", href: sessionTimeoutStyles },
];

// The shell's data comes from the server only: the browser's build empties root.server.ts.
export { loader } from "./root.server";

// The root loader runs on every navigation (not only when its own URL changes): it is where the
// maintenance check lives, and its answer restarts the session-timeout timers (decisions 060, 061).
export const shouldRevalidate: ShouldRevalidateFunction = () => true;

export function Layout({ children }: { children: React.ReactNode }) {
  const data = useShellData();
  useLocaleSync(data?.locale, data?.localesVersion);
  const nonce = useNonce();
  const { t, i18n } = useTranslation();
  const locale = data?.locale ?? i18n.language ?? "en-GB";
  // the root's own loader failed: its boundary's page is titled here, in its heading's words (meta has none)
  const error = useRouteError();
  // Brand values arrive as CSS custom properties on <html>; app.css uses them (the login
  // background by screen width in its media queries, the chart colours by theme), so the page
  // needs no style element.
  const brandStyle = {
    ...Object.fromEntries((data?.brand.chartColours ?? []).map((colour, i) => [`--chart-colour-${i + 1}`, colour])),
    ...Object.fromEntries(
      (data?.brand.darkChartColours ?? []).map((colour, i) => [`--chart-dark-colour-${i + 1}`, colour]),
    ),
    ...(data?.brand.loginBackground ? loginBackgroundProperties(data.brand.loginBackground) : {}),
  } as React.CSSProperties;
  const favicon = data?.brand.favicon ?? DEFAULT_FAVICON;
  return (
    // The theme is on <html> from the server (docs/decisions/203): the first paint has its colours.
    <html
      lang={locale}
      data-locales-version={data?.localesVersion}
      data-theme={data?.theme ?? "system"}
      style={brandStyle}
    >
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <Meta />
        {!data && error ? <title>{rootFailureTitle(error, t)}</title> : null}
        <Links />
        <link rel="icon" href={favicon.href} type={favicon.type} />
      </head>
      <body>
        {children}
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
        {/* `npm run dev` only (docs/decisions/152): reloads or updates the page after a rebuild; nothing otherwise */}
        <LiveReload nonce={nonce} />
      </body>
    </html>
  );
}

/**
 * Marks the page once its scripts have taken it over (hydrated, and every part that changes then
 * rendered so): `<html data-scripts="ready">`. Before then a press on a button is the form without
 * JavaScript; the journeys that check what JavaScript adds wait for it (e2e/fixtures.ts `scriptsReady`).
 */
function markScriptsReady() {
  document.documentElement.dataset.scripts = "ready";
}

function Providers({ children }: { children: React.ReactNode }) {
  const data = useShellData();
  return (
    <HydratedProvider onHydrated={markScriptsReady}>
      <AuthenticityTokenProvider token={data?.csrfToken ?? ""}>{children}</AuthenticityTokenProvider>
    </HydratedProvider>
  );
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

export const meta: MetaFunction = ({ error, matches }) => {
  const title = errorPageTitle(error, matches);
  return title ? [{ title }] : [];
};

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
