import { randomBytes } from "node:crypto";
import type { ActionFunctionArgs, EntryContext, HandleDataRequestFunction, LoaderFunctionArgs } from "@remix-run/node";
import { createReadableStreamFromReadable } from "@remix-run/node";
import { isRouteErrorResponse, RemixServer } from "@remix-run/react";
import { isbot } from "isbot";
import { renderToPipeableStream } from "react-dom/server";
import { ChartMarkupProvider } from "~/components/charts/chart-markup";
import { errorTitlePrefix } from "~/components/error-summary";
import { NonceProvider } from "~/components/nonce";
import { TranslationProvider } from "~/components/translation";
import { env } from "./runtime/env.server";
import { resolveLocale, translatorFor } from "./session/i18next.server";
import { logger } from "./runtime/logger.server";
import { recordPageView } from "./session/page-view.server";
import { setCookiesOf } from "~/lib/set-cookies";
import { platformServerTiming } from "./runtime/platform-timing.server";
import { pageChartMarkup } from "./runtime/chart-markup.server";
import { notAPageHeaders, securityHeaders } from "./runtime/security-headers.server";
import { PageBodyStream } from "./runtime/page-stream.server";
import { SESSION_COOKIE, touchSession } from "~/session/session.server";
import { describeClamdAddress } from "~/lib/virus-scan.server";

const ABORT_DELAY = 5_000;

// ASVS V12.4.2 (docs/decisions/192): said at every start, so that unscanned attachments are never a surprise
if (env.clamd) logger.info("attachments are scanned for viruses by clamd", { clamd: describeClamdAddress(env.clamd) });
else logger.warn("attachments are not scanned for viruses: CLAMD_ADDRESS is unset or off");

// The portal's server runs each request inside `runWithRequestId` (scripts/portal-server.mjs): the
// request's one context, with its id (docs/decisions/125) and its wait for the platform, which the
// answer's Server-Timing gives (docs/decisions/132). It writes its own lines with the app's logger.
export { requestIdOf, runWithRequestId } from "./runtime/request-id.server";
export { logger } from "./runtime/logger.server";
// The portal's server starts the metrics with it when METRICS_PORT is set (docs/decisions/126).
export { startPortalMetrics } from "./runtime/metrics.server";
// The portal's server gives each section of the route tree a request handler (docs/decisions/162).
export { routeSections, sectionsOfTarget } from "./lib/route-sections";

/**
 * The security headers the portal's server gives every answer that lacks them (every answer that
 * is not a page: data requests, files, JSON, static files, refusals). One source of truth with the
 * pages' headers below (app/runtime/security-headers.server.ts, docs/decisions/112).
 */
export function answerSecurityHeaders(): Record<string, string> {
  return notAPageHeaders(env.nodeEnv === "development");
}

/** The Content-Disposition the portal's server gives a JSON answer without one (docs/decisions/169). */
export { apiAnswerDisposition } from "./runtime/security-headers.server";

/** Server-Timing: the request's wait for the platform, for `npm run bench` (issue 16). */
function addPlatformTiming(headers: Headers) {
  const timing = platformServerTiming();
  if (timing) headers.append("Server-Timing", timing);
}

/** Sliding idle timeout: refresh the activity cookie unless the route set the session's itself. */
async function refreshSession(request: Request, headers: Headers) {
  if (setCookiesOf(headers).some((c) => c.startsWith(`${SESSION_COOKIE}=`))) return;
  const cookie = await touchSession(request);
  if (cookie) headers.append("Set-Cookie", cookie);
}

export const handleDataRequest: HandleDataRequestFunction = async (response, { request }) => {
  await refreshSession(request, response.headers);
  response.headers.set("Cache-Control", "private, no-store");
  addPlatformTiming(response.headers);
  return response;
};

export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
) {
  const nonce = randomBytes(16).toString("base64");
  const translator = translatorFor(await resolveLocale(request));
  await refreshSession(request, responseHeaders);
  // spec 000 §1 analytics monitor: only here, where whole pages are rendered (docs/decisions/029).
  await recordPageView(request, {
    status: responseStatusCode,
    route: remixContext.staticHandlerContext.matches.at(-1)?.route.id ?? null,
  });
  for (const [name, value] of Object.entries(securityHeaders(nonce, env.nodeEnv === "development"))) {
    responseHeaders.set(name, value);
  }
  addPlatformTiming(responseHeaders);
  // Crawlers and browsers without JavaScript get the whole document at once.
  const readyEvent = isbot(request.headers.get("user-agent") ?? "") ? "onAllReady" : "onShellReady";
  // The charts' markup the loaders kept for the page: its loader data names it (docs/decisions/156).
  const chartMarkup = pageChartMarkup();

  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce}>
        <TranslationProvider translator={translator}>
          <ChartMarkupProvider markup={chartMarkup}>
            <RemixServer context={remixContext} url={request.url} abortDelay={ABORT_DELAY} nonce={nonce} />
          </ChartMarkupProvider>
        </TranslationProvider>
      </NonceProvider>,
      {
        nonce,
        [readyEvent]() {
          shellRendered = true;
          // One write per flush of React's, not one per 2 KiB (docs/decisions/132).
          // the title of a page that shows errors starts with 'Error: ' (app/components/error-summary.tsx)
          const body = new PageBodyStream(errorTitlePrefix(translator.t));
          responseHeaders.set("Content-Type", "text/html; charset=utf-8");
          resolve(
            new Response(createReadableStreamFromReadable(body), {
              headers: responseHeaders,
              status: responseStatusCode,
            }),
          );
          pipe(body);
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          if (shellRendered) logger.error("render failed", { error: String(error) });
        },
      },
    );
    setTimeout(abort, ABORT_DELAY);
  });
}

export function handleError(error: unknown, { request }: LoaderFunctionArgs | ActionFunctionArgs) {
  if (request.signal.aborted) return;
  // Remix's own refusals (a method the route does not take, an address no route has): the
  // caller's doing, answered with their status, not a fault of the portal.
  if (isRouteErrorResponse(error) && error.status < 500) {
    logger.warn("request refused", {
      method: request.method,
      url: new URL(request.url).pathname,
      status: error.status,
    });
    return;
  }
  logger.error("request failed", {
    url: new URL(request.url).pathname,
    error: error instanceof Error ? error.stack : String(error),
  });
}
