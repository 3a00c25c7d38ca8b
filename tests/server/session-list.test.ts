import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { sessions, users } from "../../server/db/schema";
import { clientOf, USER_AGENT_MAX } from "../../server/lib/request-origin";
import { DEMO_PASSWORD } from "../../server/seed";
import { type ErrorAnswer, withPlatform } from "./harness";

// ASVS V3.3.4 (docs/decisions/170): where a user is signed in, and ending those sessions.
const harness = withPlatform();
/** Ending a session asks for the current password (decision 179). */
const PASSWORD = { current_password: DEMO_PASSWORD };

const FIREFOX = "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0";
const SAFARI =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1";

type Listed = {
  id: number;
  user_agent: string | null;
  client_address: string | null;
  created_at: { _type: string; _val: string };
  last_active: { _type: string; _val: string };
  current: boolean;
};
type SessionList = { sessions: Listed[] } & ErrorAnswer;

/** Signs in from a browser at an address, as the portal forwards them. */
async function signInFrom(username: string, address: string, userAgent: string, userType = "client") {
  const answer = await harness.platform.call("/auth/login", {
    method: "POST",
    body: { username, password: DEMO_PASSWORD, user_type: userType },
    headers: { "X-Client-Address": address, "X-Client-User-Agent": userAgent },
  });
  const cookie = answer.headers.getSetCookie().find((c) => c.startsWith("XPLANID="));
  if (!cookie) throw new Error(`sign-in of ${username} failed: ${answer.status}`);
  return decodeURIComponent(cookie.split(";")[0]!.slice("XPLANID=".length));
}

const list = (token: string, headers: Record<string, string> = {}) =>
  harness.platform.call<SessionList>("/resourceful/session/sessions", { token, headers });

describe("the signed-in user's sessions", () => {
  it("lists each browser with its address, when it signed in and was last active, this one marked", async () => {
    const phone = await signInFrom("demo.messages", "203.0.113.7", SAFARI);
    harness.platform.clock.advance(60_000);
    const laptop = await signInFrom("demo.messages", "2001:DB8::1", FIREFOX);
    const answer = await list(laptop);
    expect(answer.status).toBe(200);
    const mine = answer.body.sessions;
    // newest activity first; another user's sessions are not there
    expect(mine.map((s) => [s.user_agent, s.client_address, s.current])).toEqual([
      [FIREFOX, "2001:db8::1", true],
      [SAFARI, "203.0.113.7", false],
    ]);
    expect(mine[1]!.created_at).toEqual({ _type: "DateTime", _val: expect.any(String) });
    expect(Date.parse(mine[0]!.created_at._val) - Date.parse(mine[1]!.created_at._val)).toBe(60_000);

    // activity moves 'last active', and the address it came from
    harness.platform.clock.advance(120_000);
    await list(phone, { "X-Client-Address": "198.51.100.20" });
    const ofPhone = (await list(laptop)).body.sessions.find((s) => !s.current)!;
    expect(ofPhone).toMatchObject({ user_agent: SAFARI, client_address: "198.51.100.20" });
    expect(Date.parse(ofPhone.last_active._val)).toBe(harness.platform.clock.now().getTime());
    expect(ofPhone.created_at).toEqual(mine[1]!.created_at);
  });

  it("leaves out sessions idle past the session timeout", async () => {
    const old = await signInFrom("demo.factfind", "203.0.113.8", FIREFOX);
    harness.platform.clock.advance(31 * 60_000);
    const fresh = await signInFrom("demo.factfind", "203.0.113.9", SAFARI);
    expect((await list(fresh)).body.sessions.map((s) => s.client_address)).toEqual(["203.0.113.9"]);
    expect((await list(old)).status).toBe(401);
  });

  it("ends one of the user's sessions, and all the others, this one carrying on", async () => {
    const [a, b, c] = [
      await signInFrom("demo.robo", "203.0.113.1", FIREFOX),
      await signInFrom("demo.robo", "203.0.113.2", SAFARI),
      await signInFrom("demo.robo", "203.0.113.3", FIREFOX),
    ];
    const listed = (await list(c)).body.sessions;
    const ofB = listed.find((s) => s.client_address === "203.0.113.2")!;
    const ended = await harness.platform.call(`/resourceful/session/sessions/${ofB.id}`, {
      method: "DELETE",
      token: c,
      body: PASSWORD,
    });
    expect(ended.status).toBe(204);
    expect((await harness.platform.call("/resourceful/session/user", { token: b })).status).toBe(401);
    // ended already: not found
    expect(
      (
        await harness.platform.call(`/resourceful/session/sessions/${ofB.id}`, {
          method: "DELETE",
          token: c,
          body: PASSWORD,
        })
      ).status,
    ).toBe(404);

    const others = await harness.platform.call<{ ended: number }>("/resourceful/session/sessions", {
      method: "DELETE",
      token: c,
      body: PASSWORD,
    });
    expect(others).toMatchObject({ status: 200, body: { ended: 1 } });
    expect((await harness.platform.call("/resourceful/session/user", { token: a })).status).toBe(401);
    expect((await harness.platform.call("/resourceful/session/user", { token: c })).status).toBe(200);
    expect((await list(c)).body.sessions.map((s) => s.current)).toEqual([true]);
  });

  it("never shows or ends another user's sessions, an adviser's client's included", async () => {
    const client = await signInFrom("demo.client", "203.0.113.50", SAFARI);
    const clientId = (await list(client)).body.sessions[0]!.id;
    const adviser = await signInFrom("demo.adviser", "192.0.2.10", FIREFOX, "adviser");
    const entityId = (
      await harness.platform.call<{ entity_id: number }>("/resourceful/session/user", { token: client })
    ).body.entity_id;
    const context = await harness.platform.call("/resourceful/session/client_in_context", {
      method: "PUT",
      token: adviser,
      body: { client_id: entityId, client_access_level: 3 },
    });
    expect(context.status).toBe(200);
    // the adviser sees only the adviser's own sessions, with the client in context too
    const seen = (await list(adviser)).body.sessions;
    expect(seen.map((s) => s.client_address)).not.toContain("203.0.113.50");
    expect(seen.some((s) => s.current && s.client_address === "192.0.2.10")).toBe(true);
    // and cannot end the client's: it is not theirs, so it is not found
    const refused = await harness.platform.call(`/resourceful/session/sessions/${clientId}`, {
      method: "DELETE",
      token: adviser,
      body: PASSWORD,
    });
    expect(refused.status).toBe(404);
    await harness.platform.call("/resourceful/session/sessions", { method: "DELETE", token: adviser, body: PASSWORD });
    expect((await harness.platform.call("/resourceful/session/user", { token: client })).status).toBe(200);
    // another client neither
    const partner = await signInFrom("demo.partner", "203.0.113.51", FIREFOX);
    expect(
      (
        await harness.platform.call(`/resourceful/session/sessions/${clientId}`, {
          method: "DELETE",
          token: partner,
          body: PASSWORD,
        })
      ).status,
    ).toBe(404);
    expect(harness.platform.db.select().from(sessions).where(eq(sessions.id, clientId)).get()).toBeDefined();
  });

  it("ends none without the current password, and counts a wrong one (ASVS V3.3.4, decision 179)", async () => {
    const b = await signInFrom("demo.client", "203.0.113.62", SAFARI);
    const other = await signInFrom("demo.client", "203.0.113.63", FIREFOX);
    const ofOther = (await list(b)).body.sessions.find((s) => s.client_address === "203.0.113.63")!;
    const failures = () =>
      harness.platform.db.select().from(users).where(eq(users.usernameKey, "demo.client")).get()!.failedAttempts;
    const before = failures();
    for (const [body, message] of [
      [undefined, "Password is required"],
      [{}, "Password is required"],
      [{ current_password: "" }, "Password is required"],
      [{ current_password: "Not-the-password-1" }, "The current password is incorrect."],
    ] as const) {
      for (const path of [`/resourceful/session/sessions/${ofOther.id}`, "/resourceful/session/sessions"]) {
        const refused = await harness.platform.call<ErrorAnswer>(path, {
          method: "DELETE",
          token: b,
          ...(body === undefined ? {} : { body }),
        });
        expect(refused.status, `${path} ${JSON.stringify(body)}`).toBe(400);
        expect(refused.body.api_message).toBe(message);
      }
    }
    expect(failures()).toBe(before + 2);
    expect((await harness.platform.call("/resourceful/session/user", { token: other })).status).toBe(200);
    // the right one ends it
    const ended = await harness.platform.call(`/resourceful/session/sessions/${ofOther.id}`, {
      method: "DELETE",
      token: b,
      body: PASSWORD,
    });
    expect(ended.status).toBe(204);
    expect((await harness.platform.call("/resourceful/session/user", { token: other })).status).toBe(401);
  });

  it("needs a session", async () => {
    expect((await harness.platform.call("/resourceful/session/sessions")).status).toBe(401);
    expect((await harness.platform.call("/resourceful/session/sessions", { method: "DELETE" })).status).toBe(401);
  });
});

describe("what the portal forwards", () => {
  it("keeps an address only when it is one, and a printable User-Agent cut to its limit (server/lib/request-origin.ts)", () => {
    const told = (address: unknown, userAgent: unknown) =>
      clientOf(
        {
          ...(typeof address === "string" ? { "x-client-address": address } : {}),
          ...(typeof userAgent === "string" ? { "x-client-user-agent": userAgent } : {}),
        },
        "127.0.0.1",
      );
    expect(told("203.0.113.7", FIREFOX)).toEqual({ address: "203.0.113.7", userAgent: FIREFOX, forwarded: true });
    expect(told(" 2001:DB8::1 ", undefined)).toMatchObject({ address: "2001:db8::1", userAgent: null });
    expect(told("::ffff:192.0.2.1", "")).toMatchObject({ address: "192.0.2.1", userAgent: null });
    for (const bad of ["<script>", "203.0.113.7, 10.0.0.1", "example.com", ""]) {
      expect(told(bad, FIREFOX).address, String(bad)).toBeNull();
    }
    expect(told("203.0.113.7", "Agent\u0000\n<b>x</b>").userAgent).toBe("Agent <b>x</b>");
    expect(told("203.0.113.7", "a".repeat(2000)).userAgent).toHaveLength(USER_AGENT_MAX);
  });
});
