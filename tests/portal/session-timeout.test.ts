import type { LoaderFunctionArgs } from "@remix-run/node";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { type Portal, startPortal, thrown } from "./portal-harness";

// spec 000 §4 "Session timeout" and "Maintenance", proven against a real platform without waiting:
// the portal's clock (Date) is moved with vi.setSystemTime; the platform's own clock is the
// harness's fixed clock, moved separately (docs/decisions/060, 061).

const MIN = 60_000;
let portal: Portal;
let t0: number;

type RouteModule = {
  loader?: (args: LoaderFunctionArgs) => Promise<Response> | Response;
  action?: (args: LoaderFunctionArgs) => Promise<Response>;
};
const get = (path: string, cookie: string) => new Request(`http://portal.test${path}`, { headers: { Cookie: cookie } });
const load = (module: RouteModule, path: string, cookie = "") =>
  module.loader!({ request: get(path, cookie), params: {}, context: {} });

async function post(module: RouteModule, path: string, cookie: string, fields: Record<string, string> = {}) {
  const { token, cookie: csrfCookie } = await portal.csrf(cookie);
  return module.action!({
    request: new Request(`http://portal.test${path}`, {
      method: "POST",
      body: new URLSearchParams({ csrf: token, ...fields }),
      headers: { Cookie: `${cookie}; ${csrfCookie}`, "Content-Type": "application/x-www-form-urlencoded" },
    }),
    params: {},
    context: {},
  });
}

const cookieOf = (response: Response, name: "__session" | "__activity") =>
  response.headers
    .getSetCookie()
    .find((c) => c.startsWith(`${name}=`))
    ?.split(";")[0];

/** The activity time the server reads from a browser's cookies (the session's and the activity cookie's). */
async function lastActivity(cookies: string): Promise<number> {
  const { getPortalSession } = await import("~/session/session.server");
  const session = await getPortalSession(new Request("http://portal.test/", { headers: { Cookie: cookies } }));
  if (!session) throw new Error("no session in these cookies");
  return session.lastActivity;
}

async function platformToken(cookie: string): Promise<string> {
  const { sessionStorage } = await import("~/session/session.server");
  return (await sessionStorage.getSession(cookie)).get("token")!;
}

beforeAll(async () => {
  portal = await startPortal();
});
afterAll(() => portal.close());

beforeEach(() => {
  // Only Date is faked: timers and the network keep running.
  vi.useFakeTimers({ toFake: ["Date"] });
  t0 = Date.UTC(2025, 2, 14, 10, 0, 0);
  vi.setSystemTime(t0);
});
afterEach(() => {
  vi.useRealTimers();
});

const at = (ms: number) => vi.setSystemTime(t0 + ms);

describe("the server enforces the idle timeout (spec 000 §4, profile 30 minutes)", () => {
  it("keeps a session active for 30 minutes and refuses it after, with the lost-session login", async () => {
    const cookie = await portal.signIn("demo.client");
    const home = await import("~/routes/clients.home/route");
    at(29 * MIN);
    expect((await load(home, "/clients/home", cookie)).status).toBe(200);
    at(30 * MIN + 1_000);
    const refused = await thrown(Promise.resolve(load(home, "/clients/home", cookie)));
    expect(refused.headers.get("Location")).toBe("/login?reason=LostSession&redirectTo=%2Fclients%2Fhome");
    expect(refused.headers.get("Set-Cookie")).toMatch(/^__session=;/);
  });

  it("slides with page responses, to the minute", async () => {
    const cookie = await portal.signIn("demo.client");
    const { touchSession } = await import("~/session/session.server");
    const request = get("/clients/home", cookie);
    expect(await touchSession(request, t0 + 30_000)).toBeNull();
    const activity = (await touchSession(request, t0 + 20 * MIN))!.split(";")[0]!;
    // only the activity cookie is written: the session cookie stays as the browser has it
    expect(activity).toMatch(/^__activity=/);
    const touched = `${cookie}; ${activity}`;
    expect(await lastActivity(touched)).toBe(t0 + 20 * MIN);
    const home = await import("~/routes/clients.home/route");
    at(45 * MIN); // 25 minutes after the last page
    expect((await load(home, "/clients/home", touched)).status).toBe(200);
    expect((await thrown(Promise.resolve(load(home, "/clients/home", cookie)))).status).toBe(302);
  });

  it("tells the browser how long the server still allows", async () => {
    const cookie = await portal.signIn("demo.client");
    const root = await import("~/root");
    at(10_000);
    const soon = await (await load(root, "/clients/home", cookie)).json();
    expect(soon.sessionTimeout).toMatchObject({ idleMinutes: 30, remainingMs: 30 * MIN - 10_000 });
    at(5 * MIN); // this response moves the activity time: the whole timeout again
    const later = await (await load(root, "/clients/home", cookie)).json();
    expect(later.sessionTimeout.remainingMs).toBe(30 * MIN);
    expect((await (await load(root, "/login", "")).json()).sessionTimeout).toBeNull();
  });
});

describe("the heartbeat (spec 000 §4, §8)", () => {
  it("refreshes the activity time to the second, so an active user keeps the session", async () => {
    const cookie = await portal.signIn("demo.client");
    const heartbeat = await import("~/routes/session.heartbeat/route");
    at(10_000); // inside the minute a page response would not rewrite the cookie
    const quick = await post(heartbeat, "/session/heartbeat", cookie);
    expect(quick.status).toBe(200);
    expect(await quick.json()).toEqual({ ok: true, idleMinutes: 30 });
    expect(cookieOf(quick, "__session")).toBeUndefined();
    expect(await lastActivity(`${cookie}; ${cookieOf(quick, "__activity")!}`)).toBe(t0 + 10_000);

    at(20 * MIN);
    const answer = await post(heartbeat, "/session/heartbeat", cookie);
    const refreshed = `${cookie}; ${cookieOf(answer, "__activity")!}`;
    expect(await lastActivity(refreshed)).toBe(t0 + 20 * MIN);
    const home = await import("~/routes/clients.home/route");
    at(45 * MIN);
    expect((await load(home, "/clients/home", refreshed)).status).toBe(200);
    // The same user without the heartbeat would have been signed out.
    expect((await thrown(Promise.resolve(load(home, "/clients/home", cookie)))).headers.get("Location")).toMatch(
      /^\/login\?reason=LostSession/,
    );
  });

  it("never puts back a session that a crossing response changed or ended", async () => {
    const cookie = await portal.signIn("demo.client");
    const heartbeat = await import("~/routes/session.heartbeat/route");
    const { getPortalSession, updateSessionUser } = await import("~/session/session.server");
    at(10_000);
    // the heartbeat leaves with the cookie as it was; meanwhile another response changes the session
    const beat = await post(heartbeat, "/session/heartbeat", cookie);
    const before = (await getPortalSession(get("/", cookie)))!;
    const changed = (await updateSessionUser(get("/", cookie), { ...before.user, locale: "fr-CA" })).split(";")[0]!;
    // the heartbeat's answer lands last: it carries no session cookie to overwrite the change with
    expect(beat.headers.getSetCookie().filter((c) => c.startsWith("__session="))).toEqual([]);
    const browser = `${changed}; ${cookieOf(beat, "__activity")!}`;
    expect((await getPortalSession(get("/", browser)))!.user.locale).toBe("fr-CA");
    // an activity cookie counts for its own session only
    at(MIN);
    const other = await portal.signIn("demo.client");
    at(25 * MIN);
    const late = cookieOf(await post(heartbeat, "/session/heartbeat", cookie), "__activity")!;
    at(40 * MIN);
    expect(await getPortalSession(get("/", `${cookie}; ${late}`))).not.toBeNull();
    expect(await getPortalSession(get("/", `${other}; ${late}`))).toBeNull();
  });

  it("answers 'No current session' once the portal's timeout has passed", async () => {
    const cookie = await portal.signIn("demo.client");
    const heartbeat = await import("~/routes/session.heartbeat/route");
    at(31 * MIN);
    const answer = await post(heartbeat, "/session/heartbeat", cookie);
    expect(answer.status).toBe(401);
    expect(await answer.json()).toEqual({
      ok: false,
      error: "No current session",
      redirectTo: "/login?reason=LostSession",
    });
    expect(answer.headers.get("Set-Cookie")).toMatch(/^__session=;/);
  });

  it("answers 'No current session' when the platform has ended the session", async () => {
    const cookie = await portal.signIn("demo.client");
    const heartbeat = await import("~/routes/session.heartbeat/route");
    portal.platform.clock.advance(31 * MIN); // the platform's own idle timeout
    try {
      at(MIN);
      const answer = await post(heartbeat, "/session/heartbeat", cookie);
      expect(answer.status).toBe(401);
      expect((await answer.json()).error).toBe("No current session");
    } finally {
      portal.platform.clock.advance(-31 * MIN);
    }
  });

  it("refuses a heartbeat without the form token", async () => {
    const cookie = await portal.signIn("demo.client");
    const heartbeat = await import("~/routes/session.heartbeat/route");
    const failure = await thrown(
      heartbeat.action({
        request: new Request("http://portal.test/session/heartbeat", {
          method: "POST",
          body: new URLSearchParams(),
          headers: { Cookie: cookie },
        }),
        params: {},
        context: {},
      }),
    );
    expect(failure.status).toBe(403);
  });
});

describe("the end of the warning (spec 000 §4: at the end the user is logged out)", () => {
  it("ends the platform session, clears the cookie and lands on the lost-session login", async () => {
    const cookie = await portal.signIn("demo.client");
    const token = await platformToken(cookie);
    const timeout = await import("~/routes/session.timeout/route");
    at(30 * MIN - 1_000);
    const answer = await post(timeout, "/session/timeout", cookie, { redirectTo: "/clients/home" });
    expect(answer.status).toBe(302);
    expect(answer.headers.get("Location")).toBe("/login?reason=LostSession&redirectTo=%2Fclients%2Fhome");
    expect(answer.headers.get("Set-Cookie")).toMatch(/^__session=;/);
    const replay = await portal.platform.call("/resourceful/session/heartbeat", { token });
    expect(replay.status).toBe(401);
    expect(replay.body.api_message).toBe("No current session");
  });

  it("never sends the user elsewhere after login", async () => {
    const cookie = await portal.signIn("demo.client");
    const timeout = await import("~/routes/session.timeout/route");
    const answer = await post(timeout, "/session/timeout", cookie, { redirectTo: "https://evil.example/" });
    expect(answer.headers.get("Location")).toBe("/login?reason=LostSession");
  });
});

describe("maintenance (spec 000 §2, §4)", () => {
  const setMaintenance = (on: boolean) =>
    portal.platform.call("/dev/maintenance", { method: "PUT", body: { maintenance: on } });

  it("sends pages to /maintenance while the platform's health is BAD, except the legal pages", async () => {
    const root = await import("~/root");
    const page = await import("~/routes/maintenance/route");
    const cookie = await portal.signIn("demo.client");
    at(MIN);
    expect((await load(root, "/clients/home", cookie)).status).toBe(200);
    expect((await thrown(Promise.resolve(load(page, "/maintenance")))).headers.get("Location")).toBe("/");

    await setMaintenance(true);
    try {
      at(MIN + 6_000); // past the few seconds the last answer is kept
      for (const [path, who] of [
        ["/clients/home", cookie],
        ["/login", ""],
        ["/", ""],
      ] as const) {
        const redirected = await thrown(Promise.resolve(load(root, path, who)));
        expect(redirected.headers.get("Location"), path).toBe("/maintenance");
      }
      for (const path of ["/core/site-terms", "/core/privacy-policy-view", "/core/cookie-policy", "/maintenance"]) {
        expect((await load(root, path, "")).status, path).toBe(200);
      }
      const shown = await load(page, "/maintenance");
      expect(shown.status).toBe(503);
      const body = await shown.json();
      expect(body.title).toBe("Client Online is down for maintenance");
      expect(body.html).toContain("We are carrying out planned maintenance on Client Online.");
      expect(body.html).not.toMatch(/<script|on\w+=/i);
    } finally {
      await setMaintenance(false);
    }
    at(MIN + 12_000);
    expect((await load(root, "/clients/home", cookie)).status).toBe(200);
    expect((await thrown(Promise.resolve(load(page, "/maintenance")))).headers.get("Location")).toBe("/");
  });
});
