import { json, redirect } from "@remix-run/node";
import { logger } from "~/runtime/logger.server";
import { isSiteAccessLevel, type SiteAccessLevel } from "~/lib/site-access";
import { logout } from "~/planning/auth.server";
import { createPlanningClient, type PlanningClient } from "~/planning/client.server";
import { lostSessionUrl } from "./failures.server";
import type { SessionUser } from "~/lib/user";
import { destroySessionCookie, getPortalSession, readSession } from "./session.server";

export type SignedIn = {
  user: SessionUser;
  planning: PlanningClient;
  /** The page's path (no query: it can hold names), for the `access refused` line (docs/decisions/185). */
  path: string;
};

/** The signed-in user, or a redirect to the login page (with LostSession when a session lapsed). */
export async function requireUser(request: Request): Promise<SignedIn> {
  const portal = await getPortalSession(request);
  if (!portal) {
    const hadSession = Boolean((await readSession(request)).get("user"));
    const url = new URL(request.url);
    const to = hadSession
      ? lostSessionUrl(request)
      : `/login${url.pathname === "/" ? "" : `?${new URLSearchParams({ redirectTo: `${url.pathname}${url.search}` })}`}`;
    throw redirect(to, hadSession ? { headers: { "Set-Cookie": await destroySessionCookie(request) } } : undefined);
  }
  return {
    user: portal.user,
    planning: createPlanningClient({ token: portal.token }),
    path: new URL(request.url).pathname.slice(0, MAX_PATH),
  };
}

/** spec 000 §6 and 002 §6: adviser-only pages show Access Denied to everyone else. */
export async function requireAdviser(request: Request): Promise<SignedIn> {
  const signedIn = await requireUser(request);
  if (signedIn.user.role !== "User") throw refuseAccess(signedIn, "advisers only");
  return signedIn;
}

/** Pages such as change password, preferences and security questions allow only the client role. */
export async function requireClient(request: Request): Promise<SignedIn> {
  const signedIn = await requireUser(request);
  if (signedIn.user.role !== "ClientUser") throw refuseAccess(signedIn, "clients only");
  return signedIn;
}

export type ClientContext = SignedIn & {
  /** The client whose portal is shown: the signed-in client, or the adviser's client in context. */
  entityId: number;
  siteAccessLevel: SiteAccessLevel;
  isAdviser: boolean;
  isPreviewMode: boolean;
};

/**
 * spec 000 §4 "Session check and gates": the clients section renders only for a client or for an
 * adviser with a client in context; an adviser without one is sent to the client list.
 */
export async function requireClientContext(request: Request): Promise<ClientContext> {
  const signedIn = await requireUser(request);
  const { user } = signedIn;
  if (user.role === "ClientUser") {
    if (!isSiteAccessLevel(user.siteAccessLevel)) throw await siteAccessRefused(request, signedIn);
    return {
      ...signedIn,
      entityId: user.entityId,
      siteAccessLevel: user.siteAccessLevel,
      isAdviser: false,
      isPreviewMode: false,
    };
  }
  const context = user.clientInContext;
  if (!context) throw redirect("/advisers/clients");
  return {
    ...signedIn,
    entityId: context.entityId,
    siteAccessLevel: context.siteAccessLevel,
    isAdviser: true,
    isPreviewMode: context.isPreviewMode,
  };
}

/**
 * spec 000 §4: the site access gate shows content only for a valid level, otherwise it sends the
 * user to /login. Sign-in refuses such a client already (login.server's refuseSiteAccess); this
 * holds the gate for a session cookie that somehow carries no valid level. The session ends.
 */
async function siteAccessRefused(request: Request, { user, planning }: SignedIn): Promise<Response> {
  const problem = user.siteAccessLevel == null ? "AccessLevelLookup" : "AccessLevelMapping";
  logger.error("site access refused, session ended", { problem, userId: user.id });
  await logout(planning);
  return redirect(`/login?${new URLSearchParams({ error: problem })}`, {
    headers: { "Set-Cookie": await destroySessionCookie(request) },
  });
}

/** spec 000 §2 rules: pages limited to site access levels show Access Denied otherwise. */
export function requireSiteAccess(context: ClientContext, allowed: SiteAccessLevel[]): void {
  if (!allowed.includes(context.siteAccessLevel)) {
    throw refuseAccess(context, `site access level ${context.siteAccessLevel} not in ${allowed.join(", ")}`);
  }
}

/** The longest path an `access refused` line carries (as a page view's, decision 029). */
const MAX_PATH = 200;

/**
 * ASVS 4.0.3 V7.2.2 (docs/decisions/185): a page refused to a signed-in user is one `access refused`
 * line with the user's id, the path, the role and why (fixed words, never personal data); the
 * request's id comes from the logger. Answers the Access Denied response to throw.
 */
export function refuseAccess(signedIn: Pick<SignedIn, "user" | "path">, reason: string): Response {
  logger.warn("access refused", {
    userId: signedIn.user.id,
    role: signedIn.user.role,
    path: signedIn.path,
    status: 403,
    reason,
  });
  return accessDenied();
}

function accessDenied(): Response {
  return json({ accessDenied: true }, { status: 403 });
}

export function notFound(): Response {
  return json({ notFound: true }, { status: 404 });
}
