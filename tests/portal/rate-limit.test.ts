import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { users } from "../../server/db/schema";
import { DEMO_PASSWORD } from "../../server/seed";
import { type Portal, startPortal } from "./portal-harness";

// docs/decisions/046: sign-in and recovery posts are limited per client address. With no trusted
// proxy (TRUST_PROXY_HOPS=0, the default) the address is the connection's; behind N trusted
// proxies it is the entry the outermost one wrote into X-Forwarded-For. docs/decisions/115: failed
// sign-ins are counted per username too, whatever the address, and refused before the platform is
// asked (so that strangers do not reach the platform's lockout). The address cases give each post a
// username of its own, so that the username limit never joins in.

let portal: Portal;
let env: typeof import("~/runtime/env.server").env;
beforeAll(async () => {
  portal = await startPortal();
  ({ env } = await import("~/runtime/env.server"));
});
afterAll(() => portal.close());

type Connection = { socketAddress: string; forwardedFor?: string };

function post(path: string, form: { body: URLSearchParams; cookie: string }, from: Connection) {
  const headers: Record<string, string> = { Cookie: form.cookie, "Content-Type": "application/x-www-form-urlencoded" };
  if (from.forwardedFor) headers["X-Forwarded-For"] = from.forwardedFor;
  return new Request(`http://portal.test${path}`, { method: "POST", body: form.body, headers });
}

let stranger = 0;
/** A login post; `device` is the browser's device cookie (`name=value`), if it has one (decision 173). */
async function postLogin(
  from: Connection,
  username = `nobody.${++stranger}`,
  password = "not-the-password",
  device?: string,
) {
  const route = await import("~/routes/login/route");
  const form = await portal.anonymousForm({ userType: "client", username, password });
  if (device) form.cookie = `${form.cookie}; ${device}`;
  const context = { socketAddress: from.socketAddress };
  return (await route.action({ request: post("/login", form, from), params: {}, context })) as Response;
}

async function postForgotten(from: Connection, fields: Record<string, string>) {
  const route = await import("~/routes/login_.help/route");
  const form = await portal.anonymousForm({ userType: "client", ...fields });
  const context = { socketAddress: from.socketAddress };
  return (await route.action({ request: post("/login/help", form, from), params: {}, context })) as Response;
}

type LoginData = { alert?: { key: string }; result?: { initialValue?: Record<string, unknown> } };

describe("the sign-in rate limit, with no trusted proxy", () => {
  it("refuses the 21st sign-in post of an address within 5 minutes, keeping the username", async () => {
    expect(env.trustProxyHops).toBe(0);
    for (let attempt = 1; attempt <= 20; attempt++) {
      // A header anyone can write changes nothing: each post claims another address.
      const from = { socketAddress: "::ffff:203.0.113.9", forwardedFor: `198.51.100.${attempt}` };
      expect((await postLogin(from)).status).toBe(401);
    }
    const refused = await postLogin(
      { socketAddress: "::ffff:203.0.113.9", forwardedFor: "198.51.100.99" },
      "nobody.here",
    );
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(Number(refused.headers.get("Retry-After"))).toBeLessThanOrEqual(300);
    const data = (await refused.json()) as LoginData;
    expect(data.alert?.key).toBe("steps.rateLimited");
    expect(data.result?.initialValue?.username).toBe("nobody.here");
    expect(data.result?.initialValue?.password).toBeUndefined();
  });

  it("counts each address apart", async () => {
    expect((await postLogin({ socketAddress: "203.0.113.10" })).status).toBe(401);
  });

  it("refuses even the right password while the address is over the limit", async () => {
    // The same client as above, spelled as IPv4: the post is refused before the platform is asked.
    expect((await postLogin({ socketAddress: "203.0.113.9" }, "demo.client")).status).toBe(429);
  });
});

describe("the sign-in rate limit, behind one trusted proxy", () => {
  beforeAll(() => {
    env.trustProxyHops = 1;
  });
  afterAll(() => {
    env.trustProxyHops = 0;
  });

  it("counts the address the proxy saw, not the proxy's own", async () => {
    const proxy = "10.0.0.2";
    for (let attempt = 1; attempt <= 20; attempt++) {
      expect((await postLogin({ socketAddress: proxy, forwardedFor: `6.6.6.${attempt}, 203.0.113.20` })).status).toBe(
        401,
      );
    }
    expect((await postLogin({ socketAddress: proxy, forwardedFor: "203.0.113.20" })).status).toBe(429);
    // Another person behind the same proxy has a bucket of their own.
    expect((await postLogin({ socketAddress: proxy, forwardedFor: "203.0.113.21" })).status).toBe(401);
  });
});

describe("the recovery rate limit, with no trusted proxy", () => {
  it("refuses the 11th recovery post of an address within 15 minutes, for both forms", async () => {
    const from = { socketAddress: "203.0.113.30" };
    for (let attempt = 1; attempt <= 10; attempt++) {
      // An empty username: the page answers 'Please enter a username'; the post still counts.
      expect((await postForgotten(from, { intent: "password", username: "" })).status).toBe(400);
    }
    const refused = await postForgotten(from, { intent: "password", username: "demo.client" });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(Number(refused.headers.get("Retry-After"))).toBeLessThanOrEqual(900);
    const data = (await refused.json()) as { messageKey?: string; messageValues?: { minutes: number } };
    expect(data.messageKey).toBe("errors.rateLimited");
    expect(data.messageValues?.minutes).toBe(15);

    // Forgotten username shares the bucket.
    const username = await postForgotten(from, {
      intent: "username",
      email: "demo.client@example.com",
      dob: "01/01/1970",
    });
    expect(username.status).toBe(429);

    // Another address is not affected, and the same address can still try to sign in.
    expect((await postForgotten({ socketAddress: "203.0.113.31" }, { intent: "password", username: "" })).status).toBe(
      400,
    );
    expect((await postLogin(from)).status).toBe(401);
  });
});

describe("failed sign-ins per username (docs/decisions/115)", () => {
  /** A login of its own, in the state of a seeded one, so that no other case meets it. */
  async function copyOf(template: string, username: string) {
    const copied = await portal.platform.call(`/dev/users/${template}/copy`, { method: "POST", body: { username } });
    expect(copied.status).toBe(201);
    return username;
  }
  const platformRow = (username: string) =>
    portal.platform.db.select().from(users).where(eq(users.username, username)).get()!;
  let next = 0;
  const anyAddress = () => ({ socketAddress: `192.0.2.${++next}` });

  it("refuses a username after 4 failures from as many addresses, before the platform is asked, whatever the password", async () => {
    expect(env.rateLimitSignInFailures).toBe(4);
    const username = await copyOf("demo.client", "limit.one");
    for (let attempt = 1; attempt <= 4; attempt++) expect((await postLogin(anyAddress(), username)).status).toBe(401);
    expect(platformRow(username).failedAttempts).toBe(4);

    // The same username, spelled otherwise, from a new address: the portal's own refusal.
    const refused = await postLogin(anyAddress(), "  LIMIT.One ");
    expect(refused.status).toBe(429);
    const retryAfter = Number(refused.headers.get("Retry-After"));
    expect(retryAfter).toBeGreaterThan(800);
    expect(retryAfter).toBeLessThanOrEqual(900);
    const data = (await refused.json()) as LoginData & { alert?: { params?: { minutes?: number } } };
    // decision 173: the message says what is limited (this username, from unknown browsers), in minutes
    expect(data.alert?.key).toBe("steps.usernameLimited");
    expect(data.alert?.params?.minutes).toBe(Math.ceil(retryAfter / 60));
    expect(String(data.result?.initialValue?.username).trim()).toBe("LIMIT.One");
    expect(data.result?.initialValue?.password).toBeUndefined();

    // Even the owner with the right password waits: the platform is not asked, so its lockout
    // (the 5th consecutive wrong secret) is never reached by strangers.
    expect((await postLogin(anyAddress(), username, DEMO_PASSWORD)).status).toBe(429);
    expect(platformRow(username).failedAttempts).toBe(4);
    expect(platformRow(username).disabled).toBe(false);

    // Other usernames from the same addresses are not affected.
    expect((await postLogin({ socketAddress: `192.0.2.${next}` })).status).toBe(401);
  });

  it("clears a username's failures on a successful sign-in", async () => {
    const username = await copyOf("demo.client", "limit.two");
    for (let attempt = 1; attempt <= 3; attempt++) expect((await postLogin(anyAddress(), username)).status).toBe(401);
    const signedIn = await postLogin(anyAddress(), username, DEMO_PASSWORD);
    expect(signedIn.status).toBe(302);
    for (let attempt = 1; attempt <= 4; attempt++) expect((await postLogin(anyAddress(), username)).status).toBe(401);
    expect((await postLogin(anyAddress(), username)).status).toBe(429);
  });

  it("lets no more than 4 of a burst of posts at the same time reach the platform", async () => {
    const username = await copyOf("demo.client", "limit.burst");
    const answers = await Promise.all(Array.from({ length: 8 }, () => postLogin(anyAddress(), username)));
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses).toEqual([401, 401, 401, 401, 429, 429, 429, 429]);
    expect(platformRow(username).failedAttempts).toBe(4);
    expect(platformRow(username).disabled).toBe(false);
  });

  it("does not count a post the platform refuses for another reason (a disabled account)", async () => {
    const username = await copyOf("demo.client", "limit.disabled");
    portal.platform.db.update(users).set({ disabled: true }).where(eq(users.username, username)).run();
    for (let attempt = 1; attempt <= 6; attempt++)
      expect((await postLogin(anyAddress(), username, DEMO_PASSWORD)).status).toBe(403);
  });

  it("counts unknown usernames the same way, so that the answer tells nothing of who exists", async () => {
    for (let attempt = 1; attempt <= 4; attempt++)
      expect((await postLogin(anyAddress(), "no.such.user")).status).toBe(401);
    expect((await postLogin(anyAddress(), "no.such.user")).status).toBe(429);
  });
});

describe("a browser that has signed in as the user (its device cookie, decision 173)", () => {
  async function copyOf(template: string, username: string) {
    const copied = await portal.platform.call(`/dev/users/${template}/copy`, { method: "POST", body: { username } });
    expect(copied.status).toBe(201);
    return username;
  }
  const platformRow = (username: string) =>
    portal.platform.db.select().from(users).where(eq(users.username, username)).get()!;
  let next = 0;
  const anyAddress = () => ({ socketAddress: `198.18.0.${++next}` });
  /** The device cookie a signed-in answer sets, as a Cookie header's `name=value`. */
  const deviceCookieOf = (answer: Response) =>
    answer.headers
      .getSetCookie()
      .find((c) => c.startsWith("__device="))
      ?.split(";")[0];
  type Limited = { alert?: { key?: string; params?: { minutes?: number; count?: number } } };

  it("is given on a sign-in, never on a refusal", async () => {
    const username = await copyOf("demo.client", "device.given");
    const refused = await postLogin(anyAddress(), username);
    expect(refused.status).toBe(401);
    expect(deviceCookieOf(refused)).toBeUndefined();
    const signedIn = await postLogin(anyAddress(), username, DEMO_PASSWORD);
    expect(signedIn.status).toBe(302);
    expect(deviceCookieOf(signedIn)).toMatch(/^__device=.+/);
  });

  it("keeps signing the owner in after strangers' failures have stopped every unknown browser", async () => {
    const username = await copyOf("demo.client", "device.owner");
    const device = deviceCookieOf(await postLogin(anyAddress(), username, DEMO_PASSWORD))!;

    for (let attempt = 1; attempt <= 4; attempt++) expect((await postLogin(anyAddress(), username)).status).toBe(401);
    const stranger = await postLogin(anyAddress(), username, DEMO_PASSWORD);
    expect(stranger.status).toBe(429);
    const told = (await stranger.json()) as Limited;
    // it says what is limited: this username, from browsers that have not signed in as it
    expect(told.alert?.key).toBe("steps.usernameLimited");
    expect(told.alert?.params?.minutes).toBe(15);
    expect(Number(stranger.headers.get("Retry-After"))).toBeGreaterThan(800);
    expect(platformRow(username).failedAttempts).toBe(4);

    // the owner's browser, from yet another address, is let through and signs in
    const owner = await postLogin(anyAddress(), username, DEMO_PASSWORD, device);
    expect(owner.status).toBe(302);
    expect(platformRow(username).failedAttempts).toBe(0);
    // with a new nonce: the old value still names the user, the new one is another
    const renewed = deviceCookieOf(owner)!;
    expect(renewed).not.toBe(device);
  });

  it("counts its own failures apart, and stops before the platform's lockout", async () => {
    const username = await copyOf("demo.client", "device.typos");
    const device = deviceCookieOf(await postLogin(anyAddress(), username, DEMO_PASSWORD))!;
    for (let attempt = 1; attempt <= 4; attempt++)
      expect((await postLogin(anyAddress(), username, "not-the-password", device)).status).toBe(401);
    const limited = await postLogin(anyAddress(), username, DEMO_PASSWORD, device);
    expect(limited.status).toBe(429);
    expect(((await limited.json()) as Limited).alert?.key).toBe("steps.deviceLimited");
    expect(platformRow(username).failedAttempts).toBe(4);
    expect(platformRow(username).disabled).toBe(false);
    // an unknown browser is counted on its own (the owner's typos are not strangers')
    expect((await postLogin(anyAddress(), username, DEMO_PASSWORD)).status).toBe(302);
  });

  it("of another user, or changed, is no device cookie for this one", async () => {
    const username = await copyOf("demo.client", "device.victim");
    const other = await copyOf("demo.client", "device.other");
    const othersDevice = deviceCookieOf(await postLogin(anyAddress(), other, DEMO_PASSWORD))!;
    const changed = `${othersDevice.slice(0, -3)}${othersDevice.endsWith("AAA") ? "BBB" : "AAA"}`;
    for (let attempt = 1; attempt <= 2; attempt++) {
      expect((await postLogin(anyAddress(), username, "not-the-password", othersDevice)).status).toBe(401);
      expect((await postLogin(anyAddress(), username, "not-the-password", changed)).status).toBe(401);
    }
    const refused = await postLogin(anyAddress(), username, DEMO_PASSWORD, othersDevice);
    expect(refused.status).toBe(429);
    expect(((await refused.json()) as Limited).alert?.key).toBe("steps.usernameLimited");
  });

  it("is cleared with the username's count by a completed password reset (passwordResetCompleted)", async () => {
    const { passwordResetCompleted } = await import("~/session/known-device.server");
    const username = await copyOf("demo.client", "device.reset");
    for (let attempt = 1; attempt <= 4; attempt++) expect((await postLogin(anyAddress(), username)).status).toBe(401);
    expect((await postLogin(anyAddress(), username, DEMO_PASSWORD)).status).toBe(429);
    await passwordResetCompleted(new Request("http://portal.test/login/help/reset"), username);
    expect((await postLogin(anyAddress(), username, DEMO_PASSWORD)).status).toBe(302);
  });
});

describe("the portal's authentication log (ASVS V7.2.1, docs/decisions/174)", () => {
  it("writes an `auth` line for a sign-in it refuses itself and for a completed one, never the password", async () => {
    const { logger } = await import("~/runtime/logger.server");
    const warn = vi.spyOn(logger, "warn");
    const info = vi.spyOn(logger, "info");
    try {
      const copied = await portal.platform.call("/dev/users/demo.client/copy", {
        method: "POST",
        body: { username: "logged.one" },
      });
      expect(copied.status).toBe(201);
      const from = () => ({ socketAddress: `198.19.0.${Math.floor(Math.random() * 250) + 1}` });
      for (let attempt = 1; attempt <= 4; attempt++) await postLogin(from(), "logged.one", `Guess-${attempt}-secret`);
      expect((await postLogin(from(), "logged.one", "Guess-5-secret")).status).toBe(429);
      const refusal = warn.mock.calls.find(([message, fields]) => message === "auth" && fields?.outcome === "refused");
      expect(refusal?.[1]).toMatchObject({
        step: "password",
        limit: "username",
        reason: "rate limited: username",
        userKey: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      });
      expect((await postLogin(from(), "logged.two", "Guess-6-secret")).status).toBe(401);
      const failure = info.mock.calls.find(([message, fields]) => message === "auth" && fields?.outcome === "failure");
      expect(failure?.[1]).toMatchObject({ step: "password", status: 401, knownDevice: false });

      await portal.platform.call("/dev/users/demo.client/copy", { method: "POST", body: { username: "logged.owner" } });
      expect((await postLogin(from(), "logged.owner", DEMO_PASSWORD)).status).toBe(302);
      const id = portal.platform.db.select().from(users).where(eq(users.username, "logged.owner")).get()!.id;
      const signedIn = info.mock.calls.find(([message, fields]) => message === "auth" && fields?.step === "signedIn");
      expect(signedIn?.[1]).toMatchObject({ outcome: "success", method: "password", userId: id });

      const written = JSON.stringify([...warn.mock.calls, ...info.mock.calls]);
      for (const secret of ["Guess-1-secret", "Guess-5-secret", "Guess-6-secret", DEMO_PASSWORD])
        expect(written).not.toContain(secret);
      expect(written).not.toContain("logged.one");
    } finally {
      warn.mockRestore();
      info.mockRestore();
    }
  });
});
