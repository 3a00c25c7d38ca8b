import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { sessions, users } from "../../server/db/schema";
import { DEMO_PASSWORD } from "../../server/seed";
import { type Portal, startPortal, thrown } from "./portal-harness";

// spec 000 §4 "Session check and gates": the site access gate shows content if the level is
// valid, otherwise redirects to /login; §8 "Site access errors" (docs/decisions/038). The level is
// changed in the platform's database (through its development endpoint), as an operator would.

let portal: Portal;
let logger: typeof import("~/runtime/logger.server").logger;

beforeAll(async () => {
  portal = await startPortal();
  ({ logger } = await import("~/runtime/logger.server"));
}, 60_000);

afterAll(async () => {
  await portal?.close();
});

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

/** A copy of demo.client (its own person), with its client access level set to `level`. */
async function clientWithLevel(username: string, level: number) {
  const copied = await portal.platform.call(`/dev/users/demo.client/copy`, { method: "POST", body: { username } });
  expect(copied.status).toBe(201);
  const set = await portal.platform.call(`/dev/users/${username}/client_access_level`, {
    method: "PUT",
    body: { client_access_level: level },
  });
  expect(set.status).toBe(200);
  return username;
}

let address = 0;
async function postLogin(username: string) {
  const route = await import("~/routes/login/route");
  const { body, cookie } = await portal.anonymousForm({
    intent: "login",
    userType: username.includes("adviser") ? "adviser" : "client",
    username,
    password: DEMO_PASSWORD,
  });
  const request = new Request("http://portal.test/login", {
    method: "POST",
    body,
    headers: { Cookie: cookie, "Content-Type": "application/x-www-form-urlencoded" },
  });
  // each post from its own address, so the sign-in rate limit never joins in
  address += 1;
  return thrown(route.action({ request, params: {}, context: { socketAddress: `203.0.113.${address}` } }));
}

function openSessionsOf(username: string) {
  const user = portal.platform.db.select().from(users).where(eq(users.username, username)).get();
  if (!user) throw new Error(`no user ${username}`);
  return portal.platform.db.select().from(sessions).where(eq(sessions.userId, user.id)).all().length;
}

function setsPortalSession(response: Response) {
  return response.headers.getSetCookie().some((c) => c.startsWith("__session=") && !c.startsWith("__session=;"));
}

async function loginNoticeAt(location: string) {
  const route = await import("~/routes/login/route");
  const response = (await route.loader({
    request: new Request(`http://portal.test${location}`),
    params: {},
    context: {},
  })) as Response;
  return ((await response.json()) as { notice: { kind: string; key: string } | null }).notice;
}

describe("signing in with a site access level the portal cannot use", () => {
  it("ends the session of a level with no mapping and says 'No mapping found for client_access_level'", async () => {
    const error = vi.spyOn(logger, "error").mockImplementation(() => {});
    const username = await clientWithLevel("gate.mapping", 7);
    const response = await postLogin(username);
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/login?error=AccessLevelMapping");
    expect(setsPortalSession(response)).toBe(false);
    // the platform session opened by the sign-in is gone
    expect(openSessionsOf(username)).toBe(0);
    expect(error).toHaveBeenCalledWith(
      "site access refused, session ended",
      expect.objectContaining({ problem: "AccessLevelMapping", clientAccessLevel: "7" }),
    );

    const notice = await loginNoticeAt("/login?error=AccessLevelMapping");
    expect(notice).toEqual({ kind: "error", key: "login.siteAccess.mapping" });
  });

  it("says 'Unable to lookup mapping for client_access_level' when the platform gives no level", async () => {
    vi.spyOn(logger, "error").mockImplementation(() => {});
    const realFetch = globalThis.fetch;
    vi.stubGlobal("fetch", async (input: RequestInfo | URL, init?: RequestInit) => {
      const response = await realFetch(input, init);
      const url = new URL(typeof input === "string" || input instanceof URL ? input.toString() : input.url);
      if (url.pathname !== "/resourceful/session/user" || !response.ok) return response;
      const user = (await response.json()) as Record<string, unknown>;
      return new Response(JSON.stringify({ ...user, client_access_level: null }), {
        status: 200,
        headers: { "Content-Type": "application/json" },
      });
    });
    const response = await postLogin("demo.partner");
    expect(response.headers.get("Location")).toBe("/login?error=AccessLevelLookup");
    expect(setsPortalSession(response)).toBe(false);
    expect(openSessionsOf("demo.partner")).toBe(0);
    expect(await loginNoticeAt("/login?error=AccessLevelLookup")).toEqual({
      kind: "error",
      key: "login.siteAccess.lookup",
    });
  });

  it("says 'An error occurred getting client access level or choices' when the lookup fails", async () => {
    const error = vi.spyOn(logger, "error").mockImplementation(() => {});
    const realFetch = globalThis.fetch;
    vi.stubGlobal("fetch", async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(typeof input === "string" || input instanceof URL ? input.toString() : input.url);
      if (url.pathname === "/resourceful/session/user") {
        const body = { api_message: "The platform could not complete the request", user_message: "" };
        return new Response(JSON.stringify(body), { status: 503, headers: { "Content-Type": "application/json" } });
      }
      return realFetch(input, init);
    });
    const response = await postLogin("demo.assets");
    expect(response.headers.get("Location")).toBe("/login?error=AccessLevelError");
    expect(setsPortalSession(response)).toBe(false);
    expect(openSessionsOf("demo.assets")).toBe(0);
    expect(error).toHaveBeenCalledWith(
      "site access refused, session ended",
      expect.objectContaining({ problem: "AccessLevelError", status: 503 }),
    );
    expect(await loginNoticeAt("/login?error=AccessLevelError")).toEqual({
      kind: "error",
      key: "login.siteAccess.error",
    });
  }, 20_000);

  it("lets a client with a valid level in, as before", async () => {
    const username = await clientWithLevel("gate.valid", 2);
    const response = await postLogin(username);
    expect(response.headers.get("Location")).toBe("/clients/home");
    expect(setsPortalSession(response)).toBe(true);
  });
});

describe("the site access gate of the clients section", () => {
  it("ends a session whose cookie carries no valid level and sends the user to /login", async () => {
    vi.spyOn(logger, "error").mockImplementation(() => {});
    const { sessionStorage } = await import("~/session/session.server");
    const cookie = await portal.signIn("demo.messages");
    const session = await sessionStorage.getSession(cookie);
    session.set("user", { ...session.get("user")!, siteAccessLevel: "Everything" as never });
    const broken = (await sessionStorage.commitSession(session)).split(";")[0]!;
    const before = openSessionsOf("demo.messages");
    expect(before).toBeGreaterThan(0);

    const layout = await import("~/routes/clients/route");
    const response = await thrown(
      layout.loader({
        request: new Request("http://portal.test/clients/home", { headers: { Cookie: broken } }),
        params: {},
        context: {},
      }),
    );
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/login?error=AccessLevelMapping");
    expect(response.headers.getSetCookie().some((c) => c.startsWith("__session=;"))).toBe(true);
    expect(openSessionsOf("demo.messages")).toBe(before - 1);
  });
});

describe("the login page's texts for the site access errors (spec 000 §8)", () => {
  it("are the spec's words in en-GB", async () => {
    const { resources } = await import("~/locales/resources");
    const auth = resources["en-GB"].auth as Record<string, string>;
    expect(auth["login.siteAccess.lookup"]).toBe("Unable to lookup mapping for client_access_level");
    expect(auth["login.siteAccess.mapping"]).toBe("No mapping found for client_access_level");
    expect(auth["login.siteAccess.error"]).toBe("An error occurred getting client access level or choices");
  });
});
