import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { users } from "../../server/db/schema";
import { type SessionUser, withPlatform } from "./harness";

const harness = withPlatform();

const BAD_CREDENTIALS = "Either your username or your password is incorrect.";

describe("POST /auth/login", () => {
  it("signs a client in with an HttpOnly XPLANID cookie that opens the session", async () => {
    const answer = await harness.platform.login("  Demo.Client ");
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ login_status: "LoginSuccess", role_name: "ClientUser" });
    const cookie = answer.headers.getSetCookie()[0] ?? "";
    expect(cookie).toMatch(/^XPLANID=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly/);

    const me = await harness.platform.call<SessionUser>("/resourceful/session/user", { token: answer.token });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({
      entity_type: "client",
      entity_name: "Hartley, Eleanor",
      display_name: "Ellie Hartley",
      role_name: "ClientUser",
      locale: "en-GB",
      login_method: "Basic",
      client_access_level: 1,
      partner_entity_id: 2,
      is_preview_mode: false,
      client_in_context: null,
    });
    expect(me.body.last_login?._type).toBe("DateTime");
  });

  it("stores only a digest of the token", async () => {
    const { token } = await harness.platform.login("demo.client");
    const rows = harness.platform.db.$client.prepare("select token_hash from sessions").all() as {
      token_hash: string;
    }[];
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.some((r) => r.token_hash === token)).toBe(false);
    expect(rows.every((r) => /^[0-9a-f]{64}$/.test(r.token_hash))).toBe(true);
  });

  it("refuses a wrong password, an unknown user and a user of the other type alike, counting failures", async () => {
    const before = harness.platform.db.select().from(users).where(eq(users.usernameKey, "demo.assets")).get()!;
    const wrong = await harness.platform.login("demo.assets", "client", "not-the-password");
    const unknown = await harness.platform.login("nobody.here");
    const otherType = await harness.platform.login("demo.adviser", "client");
    for (const answer of [wrong, unknown, otherType]) {
      expect(answer.status).toBe(401);
      expect(answer.body.api_message).toBe(BAD_CREDENTIALS);
      expect(answer.token).toBeNull();
    }
    const after = harness.platform.db.select().from(users).where(eq(users.usernameKey, "demo.assets")).get()!;
    expect(after.failedAttempts).toBe(before.failedAttempts + 1);
    // a right password clears the count
    expect((await harness.platform.login("demo.assets")).status).toBe(200);
    expect(
      harness.platform.db.select().from(users).where(eq(users.usernameKey, "demo.assets")).get()!.failedAttempts,
    ).toBe(0);
  });

  it("answers 400 to a request without the fields", async () => {
    const answer = await harness.platform.call("/auth/login", { method: "POST", body: { username: "demo.client" } });
    expect(answer.status).toBe(400);
    expect(answer.body.api_message).toMatch(/password/);
    expect(answer.body.user_message).toBeTruthy();
  });

  it("refuses a disabled account with 403", async () => {
    harness.platform.db.update(users).set({ disabled: true }).where(eq(users.usernameKey, "demo.messages")).run();
    const answer = await harness.platform.login("demo.messages");
    expect(answer.status).toBe(403);
    expect(answer.body.api_message).toBe("Account has been disabled.");
    harness.platform.db.update(users).set({ disabled: false }).where(eq(users.usernameKey, "demo.messages")).run();
  });

  it("answers the first pending step with a ticket and no session for a new user", async () => {
    const answer = await harness.platform.login("demo.newuser");
    expect(answer.status).toBe(200);
    expect(answer.body.login_status).toBe("ForceChangePassword");
    expect(answer.body.login_ticket).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(answer.token).toBeNull();
  });

  it("sends an MFA user's code to the outbox and asks for it", async () => {
    const answer = await harness.platform.login("demo.mfa");
    expect(answer.body.login_status).toBe("MfaRequired");
    const outbox =
      await harness.platform.call<Array<{ to: string; channel: string; code: string }>>("/dev/outbox?to=demo.mfa");
    expect(outbox.body[0]).toMatchObject({ to: "+447700900123", channel: "sms" });
    expect(outbox.body[0]?.code).toMatch(/^\d{6}$/);
  });

  it("asks an unenrolled MFA user to link a device, and a memorable-word user for three positions", async () => {
    expect((await harness.platform.login("demo.enrol")).body.login_status).toBe("MfaEnrolmentLinkDevice");
    const memorable = await harness.platform.login("demo.memorable");
    expect(memorable.body.login_status).toBe("MemorableCharactersRequired");
    const positions = memorable.body.memorableQuestions ?? [];
    expect(positions).toHaveLength(3);
    expect(positions.every((p) => p >= 0 && p < "chestnut".length)).toBe(true);
  });
});

describe("the session", () => {
  it("is dead after DELETE /resourceful/session", async () => {
    const token = await harness.platform.session("demo.client");
    const out = await harness.platform.call("/resourceful/session", { method: "DELETE", token });
    expect(out.status).toBe(204);
    const after = await harness.platform.call("/resourceful/session/user", { token });
    expect(after.status).toBe(401);
    expect(after.body.api_message).toBe("This feature is not available without a valid session");
  });

  it("redirects to /auth/login without the auth-failure header", async () => {
    const answer = await harness.platform.call("/resourceful/session/user", { authFailureAsError: false });
    expect(answer.status).toBe(302);
    expect(answer.headers.get("location")).toBe("/auth/login");
  });

  it("expires after the profile's 30 idle minutes, and each call restarts the idle clock", async () => {
    const token = await harness.platform.session("demo.client");
    harness.platform.clock.advance(29 * 60_000);
    expect((await harness.platform.call("/resourceful/session/heartbeat", { token })).body).toEqual({ session: "ok" });
    harness.platform.clock.advance(29 * 60_000);
    expect((await harness.platform.call("/resourceful/session/user", { token })).status).toBe(200);
    harness.platform.clock.advance(31 * 60_000);
    const expired = await harness.platform.call("/resourceful/session/heartbeat", { token });
    expect(expired.status).toBe(401);
    expect(expired.body.api_message).toBe("No current session");
    // and it stays dead when time goes back
    harness.platform.clock.advance(-31 * 60_000);
    expect((await harness.platform.call("/resourceful/session/user", { token })).status).toBe(401);
  });

  it("answers the session-timeout profile", async () => {
    const answer = await harness.platform.call("/resourceful/sysadmin/loginsetting/login_profile/1");
    expect(answer.body).toEqual({ id: 1, session_timeout: 30 });
    expect((await harness.platform.call("/resourceful/sysadmin/loginsetting/login_profile/9")).status).toBe(404);
  });

  it("answers feature access by name", async () => {
    const token = await harness.platform.session("demo.client");
    const answer = await harness.platform.call(
      "/resourceful/session/feature_access?feature_names=multi_currency&feature_names=unknown",
      { token },
    );
    expect(answer.body).toEqual({ multi_currency: true, unknown: false });
  });
});
