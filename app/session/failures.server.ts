import { json, redirect } from "@remix-run/node";
import type { Failure } from "~/lib/error-catalogue";
import { isLostSession, PlanningError } from "~/planning/client.server";
import { logger } from "~/runtime/logger.server";
import { destroySessionCookie } from "./session.server";

// spec 000 §8: what a loader or an action answers when a platform call fails (docs/decisions/003).

/** The body of a catalogue failure thrown as a Response to an ErrorBoundary. */
export type FailureBody = { failure: Failure };

/**
 * The one place that turns a failed platform call into what the user gets (spec 000 §8): a lost
 * session goes to the login page; anything else becomes a Response with the catalogue failure, for
 * the route's ErrorBoundary.
 */
export async function failureResponse(error: unknown, request: Request): Promise<Response> {
  if (error instanceof Response) return error;
  const failure: Failure =
    error instanceof PlanningError ? error.failure : { kind: "generic", status: 500, detail: null };
  if (!(error instanceof PlanningError)) logger.error("unexpected error", { error: String(error) });
  if (failure.kind === "lost-session") return lostSessionRedirect(request);
  return json<FailureBody>({ failure }, { status: failure.status });
}

/**
 * The platform no longer knows the session: the portal's cookie goes too (else the login page
 * would see a live cookie and send the user straight back), and the user signs in again.
 */
export async function lostSessionRedirect(request: Request): Promise<Response> {
  return redirect(lostSessionUrl(request), { headers: { "Set-Cookie": await destroySessionCookie(request) } });
}

export function lostSessionUrl(request: Request): string {
  const url = new URL(request.url);
  const back = `${url.pathname}${url.search}`;
  const params = new URLSearchParams({ reason: "LostSession" });
  if (request.method === "GET" && back !== "/") params.set("redirectTo", back);
  return `/login?${params.toString()}`;
}

/**
 * Runs platform calls for a loader or action: failures become the catalogue Response (or the
 * login redirect) for the ErrorBoundary.
 */
export async function orFail<T>(request: Request, work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    throw await failureResponse(error, request);
  }
}

/**
 * For actions that show a failure beside the form, keeping what the user typed: answers the
 * value or the failure. A lost session still goes to the login page.
 */
export async function settle<T>(
  request: Request,
  work: Promise<T>,
): Promise<{ ok: true; value: T } | { ok: false; failure: Failure }> {
  try {
    return { ok: true, value: await work };
  } catch (error) {
    if (error instanceof Response) throw error;
    const failure: Failure =
      error instanceof PlanningError ? error.failure : { kind: "generic", status: 500, detail: null };
    if (failure.kind === "lost-session") throw await lostSessionRedirect(request);
    if (!(error instanceof PlanningError)) logger.error("unexpected error", { error: String(error) });
    return { ok: false, failure };
  }
}

/**
 * Runs a platform call for an action that reads the platform's refusal itself (its api_message
 * decides which field the message goes beside). A lost session still goes to the login page.
 */
export async function attempt<T>(
  request: Request,
  work: Promise<T>,
): Promise<{ ok: true; value: T } | { ok: false; error: PlanningError }> {
  try {
    return { ok: true, value: await work };
  } catch (error) {
    if (!(error instanceof PlanningError)) throw error;
    if (isLostSession(error)) throw await lostSessionRedirect(request);
    return { ok: false, error };
  }
}
