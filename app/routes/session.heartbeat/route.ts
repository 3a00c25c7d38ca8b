import type { ActionFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { z } from "zod/v4";
import { logger } from "~/runtime/logger.server";
import { createPlanningClient, PlanningError } from "~/planning/client.server";
import { readForm } from "~/session/csrf.server";
import { destroySessionCookie, getPortalSession, touchSession } from "~/session/session.server";

/** What the browser's session timeout (app/components/session-timeout.tsx) reads. */
export type HeartbeatAnswer = { ok: true; idleMinutes: number } | { ok: false; error: string; redirectTo?: string };

/** The platform's answer to a heartbeat, which refreshes its idle clock. */
const PlatformHeartbeat = z.object({ session: z.string() });
const LOST_SESSION = "/login?reason=LostSession";
const NO_STORE = { "Cache-Control": "no-store" };

// spec 000 §4 "Session timeout" and §8: the browser's heartbeat. It asks the platform (which
// refreshes its own idle clock) and moves the portal cookie's activity time to now, to the second,
// so that the browser's timers and the server agree (docs/decisions/060). A POST with the CSRF
// token: a page of another site must not be able to keep a session alive.
export async function action({ request }: ActionFunctionArgs) {
  // No session (lapsed, or its cookie gone): 'No current session' whatever the token, which was
  // bound to that session (docs/decisions/167); it changes nothing but the dead cookie.
  const portal = await getPortalSession(request);
  if (!portal) return noCurrentSession(request);
  await readForm(request);
  try {
    await createPlanningClient({ token: portal.token }).get("resourceful/session/heartbeat", PlatformHeartbeat, {
      retry: false,
    });
  } catch (error) {
    if (error instanceof PlanningError && error.status === 401) return noCurrentSession(request);
    // The platform did not answer: the session is not known to be lost, and the timers carry on.
    logger.error("heartbeat failed", { error: String(error) });
    return json<HeartbeatAnswer>({ ok: false, error: "Heartbeat failed" }, { status: 503, headers: NO_STORE });
  }
  const headers = new Headers(NO_STORE);
  const cookie = await touchSession(request, Date.now(), { exact: true });
  if (cookie) headers.append("Set-Cookie", cookie);
  return json<HeartbeatAnswer>({ ok: true, idleMinutes: portal.idleMinutes }, { headers });
}

/** spec 000 §8 heartbeat failure: 'No current session'; the browser goes to the lost-session login. */
async function noCurrentSession(request: Request) {
  const headers = new Headers(NO_STORE);
  headers.append("Set-Cookie", await destroySessionCookie(request));
  return json<HeartbeatAnswer>(
    { ok: false, error: "No current session", redirectTo: LOST_SESSION },
    { status: 401, headers },
  );
}

export function loader() {
  return json({ error: "Method not allowed" }, { status: 405, headers: { Allow: "POST", ...NO_STORE } });
}
