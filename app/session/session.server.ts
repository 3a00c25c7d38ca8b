import { createCookie, createCookieSessionStorage, redirect } from "@remix-run/node";
import { env } from "~/runtime/env.server";
import { currentRequestContext } from "~/runtime/request-context.server";
import type { SessionUser } from "~/lib/user";
import { issueToken, type TokenBinding } from "./anti-forgery-token.server";
import { cookieName } from "./cookie-name.server";
import { createSealedCookie } from "./sealed-cookie.server";

type SessionData = {
  token: string; // the platform token: the whole cookie is sealed (docs/decisions/113)
  user: SessionUser;
  createdAt: number;
  lastActivity: number;
  idleMinutes: number;
};

export const SESSION_COOKIE = cookieName("__session");

// Sealed whole, not only signed (issue 24 finding 7, docs/decisions/113): the user's name, ids,
// role and last login, and the platform token, are AES-256-GCM ciphertext in the browser.
export const sessionStorage = createCookieSessionStorage<SessionData>({
  cookie: createSealedCookie(
    SESSION_COOKIE,
    { httpOnly: true, sameSite: "lax", path: "/", secure: env.cookieSecure },
    "session",
  ),
});

/**
 * The session's activity time lives in a cookie of its own (docs/decisions/002): the heartbeat and
 * the sliding refresh write only this one, so a response that crosses another that changes the
 * session (Log out, a language, a client in context) can never put an older session back. It
 * names the session it belongs to by its creation time.
 */
export const ACTIVITY_COOKIE = cookieName("__activity");

const activityCookie = createCookie(ACTIVITY_COOKIE, {
  httpOnly: true,
  sameSite: "lax",
  path: "/",
  secure: env.cookieSecure,
  secrets: env.sessionSecrets,
});

type Activity = { session: number; at: number };

async function readActivity(cookieHeader: string | null): Promise<Activity | null> {
  if (!cookieHeader?.includes(`${ACTIVITY_COOKIE}=`)) return null;
  const value: unknown = await activityCookie.parse(cookieHeader);
  if (typeof value !== "object" || value === null) return null;
  const { session, at } = value as Record<string, unknown>;
  return typeof session === "number" && typeof at === "number" ? { session, at } : null;
}

/** The later of the session's own activity time and its activity cookie's. */
function lastActivityOf(sessionLast: number, createdAt: number, activity: Activity | null): number {
  return activity && activity.session === createdAt ? Math.max(sessionLast, activity.at) : sessionLast;
}

export type PortalSession = {
  token: string;
  user: SessionUser;
  createdAt: number;
  lastActivity: number;
  idleMinutes: number;
};

export async function readSession(request: Request) {
  return sessionStorage.getSession(request.headers.get("Cookie"));
}

/**
 * The session the anti-forgery token is bound to (docs/decisions/167): the platform session of the
 * browser's session cookie, alive or not (a form of a lapsed session still reaches its guard, which
 * sends the user to sign in; the timeout's log out still posts), or null without one.
 */
export async function sessionBinding(request: Request): Promise<TokenBinding> {
  if (!request.headers.get("Cookie")?.includes(`${SESSION_COOKIE}=`)) return null;
  const token: unknown = (await readSession(request)).get("token");
  return typeof token === "string" && token ? token : null;
}

/** spec 000 §9 and the timeout profile: is a session still alive at `now`? */
export function sessionState(
  s: { createdAt: number; lastActivity: number; idleMinutes: number },
  now: number,
  maxAgeMs: number = env.sessionMaxAgeMs,
): "active" | "idle-expired" | "too-old" {
  if (now - s.createdAt > maxAgeMs) return "too-old";
  if (now - s.lastActivity > s.idleMinutes * 60_000) return "idle-expired";
  return "active";
}

/**
 * One reading per request (the guards, the locale and the root each ask; issue 16). Remix hands each
 * loader a Request of its own, so the reading is kept with the request's context (the one the
 * portal's server enters for each HTTP request, request-context.server.ts), for its cookies; a
 * Request outside any context (tests calling a loader) keeps its own.
 */
const readings = new WeakMap<object, Map<string | null, Promise<PortalSession | null>>>();

/** The signed-in user's session, or null when there is none or it has expired. */
export function getPortalSession(request: Request, now?: number): Promise<PortalSession | null> {
  if (now !== undefined) return readPortalSession(request, now);
  const owner = currentRequestContext() ?? request;
  const cookies = request.headers.get("Cookie");
  let ofOwner = readings.get(owner);
  if (!ofOwner) {
    ofOwner = new Map();
    readings.set(owner, ofOwner);
  }
  let reading = ofOwner.get(cookies);
  if (!reading) {
    reading = readPortalSession(request, Date.now());
    ofOwner.set(cookies, reading);
  }
  return reading;
}

async function readPortalSession(request: Request, now: number): Promise<PortalSession | null> {
  const session = await readSession(request);
  const token = session.get("token");
  const user = session.get("user");
  const createdAt = session.get("createdAt");
  const sessionLast = session.get("lastActivity");
  const idleMinutes = session.get("idleMinutes");
  if (!token || !user || !createdAt || !sessionLast || !idleMinutes) return null;
  const lastActivity = lastActivityOf(sessionLast, createdAt, await readActivity(request.headers.get("Cookie")));
  if (sessionState({ createdAt, lastActivity, idleMinutes }, now) !== "active") return null;
  return { token, user, createdAt, lastActivity, idleMinutes };
}

/** A brand-new cookie at sign-in (never reuse the anonymous one). */
export async function createUserSession(input: {
  token: string;
  user: SessionUser;
  idleMinutes: number;
  redirectTo: string;
  headers?: HeadersInit;
}): Promise<Response> {
  const session = await sessionStorage.getSession();
  const now = Date.now();
  session.set("token", input.token);
  session.set("user", input.user);
  session.set("createdAt", now);
  session.set("lastActivity", now);
  session.set("idleMinutes", input.idleMinutes);
  const headers = new Headers(input.headers);
  headers.append("Set-Cookie", await sessionStorage.commitSession(session));
  // A new anti-forgery token, bound to the new session (every sign-in path ends here): a token seen
  // before signing in is no use after it (issue 24 finding 8, docs/decisions/113 and 167).
  headers.append("Set-Cookie", (await issueToken(input.token))[1]);
  return redirect(input.redirectTo, { headers });
}

/** Replaces the cached user (e.g. after choosing a client in context); answers a Set-Cookie value. */
export async function updateSessionUser(request: Request, user: SessionUser): Promise<string> {
  const session = await readSession(request);
  session.set("user", user);
  session.set("lastActivity", Date.now());
  return sessionStorage.commitSession(session);
}

export async function destroySessionCookie(request: Request): Promise<string> {
  return sessionStorage.destroySession(await readSession(request));
}

/**
 * The Set-Cookies of a sign-out the user asked for or the timeout made (a full page's post): the
 * session cleared and a new anti-forgery token, so a token of the session is no use after it
 * (docs/decisions/113). Not for the heartbeat's answer: the page that sent it keeps its token.
 */
export async function signOutHeaders(request: Request): Promise<Headers> {
  const headers = new Headers();
  headers.append("Set-Cookie", await destroySessionCookie(request));
  headers.append("Set-Cookie", (await issueToken(null))[1]);
  return headers;
}

/** Rewriting the cookie on every request is wasteful: page responses refresh it to the minute. */
export const TOUCH_PRECISION_MS = 60_000;

/**
 * Sliding idle timeout: called once per page response (entry.server) so that activity keeps the
 * session alive. Answers the activity cookie's Set-Cookie value (never the session's), or null
 * when there is nothing to refresh. `exact` (the heartbeat, docs/decisions/060) ignores the
 * minute's precision, so that the browser's timers and the server agree to the second.
 */
export async function touchSession(
  request: Request,
  now?: number,
  options: { exact?: boolean } = {},
): Promise<string | null> {
  const cookieHeader = request.headers.get("Cookie");
  if (!cookieHeader?.includes(`${SESSION_COOKIE}=`)) return null;
  // The request's own reading (its guards and root read it already) unless a time is given.
  const session = await getPortalSession(request, now);
  if (!session) return null;
  const at = now ?? Date.now();
  if (!options.exact && at - session.lastActivity < TOUCH_PRECISION_MS) return null;
  return activityCookie.serialize({ session: session.createdAt, at } satisfies Activity);
}

/**
 * spec 000 §4 "Session timeout": the idle time the server will allow after this response, i.e.
 * after touchSession has (or, within the minute's precision, has not) moved the activity time.
 * The browser's warning and logout timers start from this, so they never outlast the server.
 */
export function remainingIdleMs(s: { lastActivity: number; idleMinutes: number }, now = Date.now()): number {
  const idleMs = s.idleMinutes * 60_000;
  const since = now - s.lastActivity;
  return since >= TOUCH_PRECISION_MS ? idleMs : Math.max(idleMs - Math.max(since, 0), 0);
}

export { redirect };
