import type { LoaderFunctionArgs } from "@remix-run/node";
import { eq } from "drizzle-orm";
import { forgetKeptAnswers } from "~/planning/kept-answers.server";
import { featureToggles } from "../../server/db/schema";
import { type Platform, startPlatform, TEST_CALLER_KEY } from "../server/harness";

// The portal's loaders and actions against a real platform on a fresh database: the portal's
// modules read PLANNING_API_URL once, so they are imported after the platform is listening.

export type Portal = {
  platform: Platform;
  /** A portal session cookie for a demo user, as after a successful sign-in. */
  signIn: (username: string, userType?: "client" | "adviser") => Promise<string>;
  /** A portal session cookie for an MFA client: the platform's sign-in with the code from its outbox. */
  signInWithCode: (username: string) => Promise<string>;
  /**
   * A CSRF token and the cookie that goes with it, as the pages give them to a browser holding
   * `session` (a session cookie: the token is bound to it) or to a signed-out visitor.
   */
  csrf: (session?: string) => Promise<{ token: string; cookie: string }>;
  /** The honeypot's fields as the shell renders them, with `trap` typed into the trap field. */
  honeypotFields: (trap?: string) => Record<string, string>;
  /** A signed-out visitor's form: CSRF token, honeypot left empty (or `trap`), and the fields. */
  anonymousForm: (fields: Record<string, string>, trap?: string) => Promise<{ body: URLSearchParams; cookie: string }>;
  /** The user kept in a portal session cookie. */
  sessionUser: (cookie: string) => Promise<unknown>;
  close: () => Promise<void>;
};

/** `platformOptions`: the platform's (tests/server/harness.ts), e.g. a logger to read its lines. */
export async function startPortal(platformOptions?: Parameters<typeof startPlatform>[0]): Promise<Portal> {
  const platform = await startPlatform(platformOptions);
  process.env.PLANNING_API_URL = platform.baseUrl;
  // the key the test platforms ask of their caller (docs/decisions/186)
  process.env.PLANNING_API_KEY = TEST_CALLER_KEY;
  process.env.LOG_LEVEL = "silent";
  // files that share a module graph (vitest.config.ts) read the environment this file has set
  const { env, parseEnv } = await import("~/runtime/env.server");
  Object.assign(env, parseEnv(process.env));
  const { createPlanningClient } = await import("~/planning/client.server");
  const { fetchSessionUser } = await import("~/planning/session.server");
  const { sessionStorage } = await import("~/session/session.server");
  const { csrf, honeypot } = await import("~/session/csrf.server");

  /** The portal session cookie of a platform session, as the login action makes it. */
  async function sessionCookie(token: string) {
    const user = await fetchSessionUser(createPlanningClient({ token }));
    const session = await sessionStorage.getSession();
    const now = Date.now();
    session.set("token", token);
    session.set("user", user);
    session.set("createdAt", now);
    session.set("lastActivity", now);
    session.set("idleMinutes", 30);
    return (await sessionStorage.commitSession(session)).split(";")[0]!;
  }

  async function signIn(username: string, userType: "client" | "adviser" = "client") {
    return sessionCookie(await platform.session(username, userType));
  }

  async function signInWithCode(username: string) {
    const started = await platform.login(username);
    if (started.body.login_status !== "MfaRequired")
      throw new Error(`${username} is not asked for a code: ${started.body.login_status}`);
    const code = await platform.latestCode(username);
    const done = await platform.step("/auth/tfa/validate", { login_ticket: started.body.login_ticket, code });
    if (!done.token) throw new Error(`${username}'s code did not sign in`);
    return sessionCookie(done.token);
  }

  async function csrfPair(session?: string) {
    const request = new Request("http://portal.test/", session ? { headers: { Cookie: session } } : {});
    const [token, setCookie] = await csrf.commitToken(request);
    return { token, cookie: (setCookie ?? "").split(";")[0]! };
  }

  function honeypotFields(trap = "") {
    const props = honeypot.getInputProps();
    return {
      [props.nameFieldName]: trap,
      [props.validFromFieldName ?? "from__confirm"]: props.encryptedValidFrom ?? "",
    };
  }

  async function anonymousForm(fields: Record<string, string>, trap = "") {
    const { token, cookie } = await csrfPair();
    return { body: new URLSearchParams({ csrf: token, ...honeypotFields(trap), ...fields }), cookie };
  }

  async function sessionUser(cookie: string) {
    return (await sessionStorage.getSession(cookie)).get("user");
  }

  return {
    platform,
    signIn,
    signInWithCode,
    csrf: csrfPair,
    honeypotFields,
    anonymousForm,
    sessionUser,
    close: () => platform.close(),
  };
}

/** A route module as a test imports it, for its loader. */
export type LoaderModule = { loader: (args: LoaderFunctionArgs) => Promise<Response> };

/** A route's loader asked for `path` (a GET with the session `cookie`, and the route's `params`), as Remix asks it. */
export const callLoader = (module: LoaderModule, path: string, cookie: string, params: Record<string, string> = {}) =>
  module.loader({
    request: new Request(`http://portal.test${path}`, { headers: { Cookie: cookie } }),
    params,
    context: {},
  });

/** A loader's or action's thrown Response (redirects, Access Denied, catalogue failures). */
export async function thrown(work: Promise<unknown>): Promise<Response> {
  try {
    const value = await work;
    if (value instanceof Response) return value;
  } catch (error) {
    if (error instanceof Response) return error;
    throw error;
  }
  throw new Error("expected a Response");
}

/** Session cookies for a client at each access level, the adviser, and the adviser with demo.client in context. */
export async function signInDemoUsers(portal: Portal) {
  const [client, assets, messages, adviser] = await Promise.all([
    portal.signIn("demo.client"),
    portal.signIn("demo.assets"),
    portal.signIn("demo.messages"),
    portal.signIn("demo.adviser", "adviser"),
  ]);
  // the adviser opens the demo client (Portfolio, own view: no preview)
  const adviserWithClient = await openClientInContext(portal, adviser, "Hartley", "Hartley, Eleanor");
  return { client, assets, messages, adviser, adviserWithClient };
}

/**
 * The adviser's session cookie after opening a client from the client list (Portfolio, own view),
 * as the page's form does: search by `search`, pick the row named `name`.
 */
export async function openClientInContext(
  portal: Portal,
  adviser: string,
  search: string,
  name: string,
): Promise<string> {
  const list = await import("~/routes/advisers.clients/route");
  const found = await (
    await list.loader({
      request: new Request(`http://portal.test/advisers/clients?name=${encodeURIComponent(search)}&dob=&postcode=`, {
        headers: { Cookie: adviser },
      }),
      params: {},
      context: {},
    })
  ).json();
  const row = found.results?.rows.find((r: { name: string }) => r.name === name);
  if (!row) throw new Error(`${name} is not in the adviser's list`);
  const { token, cookie } = await portal.csrf(adviser);
  const opened = await thrown(
    list.action({
      request: new Request("http://portal.test/advisers/clients", {
        method: "POST",
        body: new URLSearchParams({ csrf: token, clientId: String(row.id), view: "Portfolio", own: row.own }),
        headers: { Cookie: `${adviser}; ${cookie}`, "Content-Type": "application/x-www-form-urlencoded" },
      }),
      params: {},
      context: {},
    }),
  );
  return opened.headers.get("Set-Cookie")!.split(";")[0]!;
}

/** Cookies as a browser keeps them: later Set-Cookies replace earlier ones of the same name. */
export function withCookies(cookie: string, response: Response): string {
  const jar = new Map(
    cookie
      .split("; ")
      .filter(Boolean)
      .map((c) => [c.slice(0, c.indexOf("=")), c] as const),
  );
  for (const set of response.headers.getSetCookie()) {
    const pair = set.split(";")[0]!;
    const name = pair.slice(0, pair.indexOf("="));
    if (/max-age=0|expires=thu, 01 jan 1970/i.test(set)) jar.delete(name);
    else jar.set(name, pair);
  }
  return [...jar.values()].join("; ");
}

/**
 * Turns a firm's feature toggle on or off in the platform's database, as its administrators would,
 * and forgets the toggles the portal keeps for a minute (decision 158), so that the next page sees it.
 */
export function setFeatureToggle(portal: Portal, name: string, enabled: boolean): void {
  portal.platform.db.update(featureToggles).set({ enabled }).where(eq(featureToggles.name, name)).run();
  forgetKeptAnswers();
}

/** A signed-in copy of a demo client (`template`), named `prefix-…`, for a test that changes its account. */
export async function freshClient(
  portal: Portal,
  prefix: string,
  template = "demo.assets",
): Promise<{ username: string; cookie: string }> {
  const username = `${prefix}-${Math.random().toString(16).slice(2, 10)}`;
  const copied = await portal.platform.call(`/dev/users/${template}/copy`, { method: "POST", body: { username } });
  if (copied.status !== 201) throw new Error(`copy of ${template}: ${copied.status}`);
  return { username, cookie: await portal.signIn(username) };
}

type FormAction = (args: { request: Request; params: object; context: object }) => Promise<Response>;

/** A signed-in browser's form post to `url` (with its CSRF token), answered by `action`, thrown answers caught. */
export async function signedInPost(
  portal: Portal,
  action: (args: never) => Promise<Response>,
  url: string,
  cookie: string,
  fields: Record<string, string>,
  headers: Record<string, string> = {},
): Promise<Response> {
  const csrf = await portal.csrf(cookie);
  const request = new Request(url, {
    method: "POST",
    body: new URLSearchParams({ csrf: csrf.token, ...fields }),
    headers: { Cookie: `${cookie}; ${csrf.cookie}`, "Content-Type": "application/x-www-form-urlencoded", ...headers },
  });
  return thrown((action as unknown as FormAction)({ request, params: {}, context: {} }));
}
