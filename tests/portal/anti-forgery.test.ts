import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_PASSWORD } from "../../server/seed";
import { tampered } from "../tamper";
import { type Portal, startPortal, thrown, withCookies } from "./portal-harness";

const SESSION_COOKIE = "__session";

// Issue 24 finding 8 (docs/decisions/113): the anti-forgery token is the portal's own (an HMAC-signed
// random token, double-submitted) and a new one is issued when a session begins (every sign-in
// path) and when it ends (Log out, the timeout's log out), so a token seen before cannot be used after.
// Issue 39 finding 5 (docs/decisions/167): it is bound to the session, so a token pair taken from one
// session (its cookie and its field) is refused with another.

let portal: Portal;
let address = 0;

beforeAll(async () => {
  portal = await startPortal();
}, 60_000);
afterAll(() => portal?.close());

const csrfCookieOf = (cookies: string) => cookies.split("; ").find((c) => c.startsWith("csrf=")) ?? null;

/** The token the pages would carry for these cookies (the root loader's). */
async function tokenFor(cookies: string): Promise<string> {
  const { csrf } = await import("~/session/csrf.server");
  const [token, setCookie] = await csrf.commitToken(
    new Request("http://portal.test/", { headers: { Cookie: cookies } }),
  );
  expect(setCookie, "the cookie already holds a token").toBeNull();
  return token;
}

/** A post to the login page's action with these cookies and the honeypot as the page renders it. */
async function postLogin(cookies: string, token: string, fields: Record<string, string>) {
  const route = await import("~/routes/login/route");
  const body = new URLSearchParams({ csrf: token, ...portal.honeypotFields(), ...fields });
  const request = new Request("http://portal.test/login", {
    method: "POST",
    body,
    headers: { Cookie: cookies, "Content-Type": "application/x-www-form-urlencoded" },
  });
  address += 1;
  return thrown(route.action({ request, params: {}, context: { socketAddress: `198.51.100.${address}` } }));
}

/** A signed-in user's post of the Log out form. */
async function postLogout(cookies: string, token: string) {
  const route = await import("~/routes/logout/route");
  const request = new Request("http://portal.test/logout", {
    method: "POST",
    body: new URLSearchParams({ csrf: token }),
    headers: { Cookie: cookies, "Content-Type": "application/x-www-form-urlencoded" },
  });
  return thrown(route.action({ request, params: {}, context: {} }));
}

/** Is `token` with these cookies accepted by a form post? */
async function accepted(cookies: string, token: string): Promise<boolean> {
  const { validateCsrf } = await import("~/session/csrf.server");
  const form = new FormData();
  form.set("csrf", token);
  try {
    await validateCsrf(form, new Request("http://portal.test/", { method: "POST", headers: { Cookie: cookies } }));
    return true;
  } catch (error) {
    if (error instanceof Response && error.status === 403) return false;
    throw error;
  }
}

async function expectRotated(before: { cookies: string; token: string }, response: Response) {
  const after = withCookies(before.cookies, response);
  expect(csrfCookieOf(after)).not.toBeNull();
  expect(csrfCookieOf(after)).not.toBe(csrfCookieOf(before.cookies));
  const token = await tokenFor(after);
  expect(token).not.toBe(before.token);
  expect(await accepted(after, token)).toBe(true);
  // the token a page carried before, with the browser's new cookie: refused
  expect(await accepted(after, before.token)).toBe(false);
  return { cookies: after, token };
}

describe("the anti-forgery token", () => {
  it("is new after a password sign-in, and again after Log out", async () => {
    const visitor = await portal.csrf();
    const before = { cookies: visitor.cookie, token: visitor.token };
    const signedIn = await postLogin(before.cookies, before.token, {
      intent: "login",
      userType: "client",
      username: "demo.client",
      password: DEMO_PASSWORD,
    });
    expect(signedIn.status).toBe(302);
    expect(signedIn.headers.get("Location")).toBe("/clients/home");
    const inside = await expectRotated(before, signedIn);
    expect(await portal.sessionUser(inside.cookies)).toMatchObject({ role: "ClientUser" });

    const loggedOut = await postLogout(inside.cookies, inside.token);
    expect(loggedOut.status).toBe(302);
    expect(loggedOut.headers.get("Location")).toBe("/login?reason=UserLoggedOut");
    await expectRotated(inside, loggedOut);
  });

  it("is new after the code step of a sign-in, not at the first step", async () => {
    const visitor = await portal.csrf();
    const first = await postLogin(visitor.cookie, visitor.token, {
      intent: "login",
      userType: "client",
      username: "demo.mfa",
      password: DEMO_PASSWORD,
    });
    expect(first.status).toBe(302);
    const midway = withCookies(visitor.cookie, first);
    expect(csrfCookieOf(midway)).toBe(csrfCookieOf(visitor.cookie));
    const code = await portal.platform.latestCode("demo.mfa");
    const done = await postLogin(midway, visitor.token, { intent: "validate-code", code });
    expect(done.status).toBe(302);
    expect(done.headers.get("Location")).toBe("/clients/home");
    await expectRotated({ cookies: midway, token: visitor.token }, done);
  });

  it("is new after the timeout's log out", async () => {
    const session = await portal.signIn("demo.assets");
    const visitor = await portal.csrf(session);
    const cookies = `${session}; ${visitor.cookie}`;
    const route = await import("~/routes/session.timeout/route");
    const request = new Request("http://portal.test/session/timeout", {
      method: "POST",
      body: new URLSearchParams({ csrf: visitor.token, redirectTo: "/clients" }),
      headers: { Cookie: cookies, "Content-Type": "application/x-www-form-urlencoded" },
    });
    const response = await thrown(route.action({ request, params: {}, context: {} }));
    expect(response.status).toBe(302);
    await expectRotated({ cookies, token: visitor.token }, response);
  });

  it("refuses a missing, changed or foreign token, and a token whose cookie was forged", async () => {
    const a = await portal.csrf();
    const b = await portal.csrf();
    expect(await accepted(a.cookie, a.token)).toBe(true);
    expect(await accepted(a.cookie, "")).toBe(false);
    expect(await accepted("", a.token)).toBe(false);
    expect(await accepted(a.cookie, b.token)).toBe(false);
    expect(await accepted(a.cookie, tampered(a.token))).toBe(false);
    // a cookie the visitor wrote: any value, but no valid signature
    const { createCookie } = await import("@remix-run/node");
    const forged = (await createCookie("csrf").serialize("abc.def")).split(";")[0]!;
    expect(await accepted(forged, "abc.def")).toBe(false);
  });
});

describe("the anti-forgery token bound to the session (issue 39 finding 5)", () => {
  const sessionOf = (cookies: string) => cookies.split("; ").find((c) => c.startsWith(`${SESSION_COOKIE}=`))!;

  it("refuses another session's token pair, and a signed-out visitor's, with this session", async () => {
    const [mine, theirs] = await Promise.all([portal.signIn("demo.client"), portal.signIn("demo.assets")]);
    const myPair = await portal.csrf(mine);
    const theirPair = await portal.csrf(theirs);
    const visitor = await portal.csrf();
    expect(await accepted(`${mine}; ${myPair.cookie}`, myPair.token)).toBe(true);
    expect(await accepted(`${theirs}; ${theirPair.cookie}`, theirPair.token)).toBe(true);
    // another user's cookie and field, sent with this session: refused
    expect(await accepted(`${mine}; ${theirPair.cookie}`, theirPair.token)).toBe(false);
    expect(await accepted(`${theirs}; ${myPair.cookie}`, myPair.token)).toBe(false);
    // a signed-out visitor's pair with a session
    expect(await accepted(`${mine}; ${visitor.cookie}`, visitor.token)).toBe(false);
    expect(await accepted(visitor.cookie, visitor.token)).toBe(true);
  });

  it("sends a form of a session whose cookie is gone to the login page, without running it", async () => {
    const session = await portal.signIn("demo.partner");
    const pair = await portal.csrf(session);
    // the browser no longer holds the session cookie (a guard, another tab, a closed browser)
    const gone = await thrown(postLogout(pair.cookie, pair.token));
    expect(gone.status).toBe(302);
    expect(gone.headers.get("Location")).toBe("/login?reason=LostSession");
    expect(gone.headers.getSetCookie()).toEqual([]);
    // the session itself was not logged out: it still signs its own forms
    expect(await accepted(`${session}; ${pair.cookie}`, pair.token)).toBe(true);
    // a token that was never this portal's, with no session: refused as before
    expect(await accepted("", pair.token)).toBe(false);
  });

  it("refuses a real form post with another user's pair, which Log out with its own pair accepts", async () => {
    const [mine, theirs] = await Promise.all([portal.signIn("demo.messages"), portal.signIn("demo.partner")]);
    const theirPair = await portal.csrf(theirs);
    expect((await postLogout(`${mine}; ${theirPair.cookie}`, theirPair.token)).status).toBe(403);
    expect(await portal.sessionUser(mine)).toMatchObject({ role: "ClientUser" });
    const myPair = await portal.csrf(mine);
    expect((await postLogout(`${mine}; ${myPair.cookie}`, myPair.token)).status).toBe(302);
  });

  it("keeps a session's token after its session lapses, and gives a signed-out visitor's at the login page", async () => {
    const session = await portal.signIn("demo.assets");
    const pair = await portal.csrf(session);
    // the page's token, for the same cookies: kept
    expect(await tokenFor(`${session}; ${pair.cookie}`)).toBe(pair.token);
    // the session cookie dropped (a guard's redirect): the next page makes a signed-out visitor's token
    const { csrf } = await import("~/session/csrf.server");
    const [fresh, setCookie] = await csrf.commitToken(
      new Request("http://portal.test/login", { headers: { Cookie: pair.cookie } }),
    );
    expect(fresh).not.toBe(pair.token);
    const after = setCookie!.split(";")[0]!;
    const signedIn = await postLogin(after, fresh, {
      intent: "login",
      userType: "client",
      username: "demo.assets",
      password: DEMO_PASSWORD,
    });
    expect(signedIn.status).toBe(302);
    expect(signedIn.headers.get("Location")).toBe("/clients/home");
    // the new session's token is bound to it: the signed-out token no longer serves
    const inside = withCookies(after, signedIn);
    expect(sessionOf(inside)).toBeDefined();
    expect(await accepted(inside, fresh)).toBe(false);
    expect(await accepted(inside, await tokenFor(inside))).toBe(true);
  });
});
