import { Writable } from "node:stream";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { users } from "../../server/db/schema";
import { createLogger } from "../../server/lib/logger";
import { DEMO_PASSWORD } from "../../server/seed";
import { DEMO_TOKEN_SECRET } from "../../server/seed/settings";
import { base32Decode, totp } from "../../server/lib/totp";
import { CALLER, withPlatform } from "./harness";

// ASVS 4.0.3 V7.2.1 (docs/decisions/174): every authentication decision is one `auth` line with
// the step, the outcome, the user's id and the request's id, success and failure alike; never the
// password, code or answer that was typed.

const lines: string[] = [];
const destination = new Writable({
  write(chunk: Buffer, _encoding, done) {
    lines.push(...chunk.toString("utf8").split("\n").filter(Boolean));
    done();
  },
});
const harness = withPlatform({ logger: createLogger("info", destination) });

type AuthLine = {
  message: string;
  level: string;
  requestId: string;
  outcome: string;
  step: string;
  userId: number | null;
  status: number;
  method?: string;
  reason?: string;
  lockedNow?: boolean;
  reused?: boolean;
};

let sequence = 0;
/** One call with a request id of its own; answers the body and the `auth` lines of that request. */
async function call<T = Record<string, unknown>>(
  path: string,
  init: { method?: string; body?: unknown; token?: string } = {},
): Promise<{ status: number; body: T; auth: AuthLine[]; token: string | null }> {
  const requestId = `auth-log-${++sequence}`;
  const headers: Record<string, string> = {
    Accept: "application/json",
    "X-Xplan-App-Id": "client-online",
    "X-Xplan-Auth-Failure-Action": "error",
    "X-Request-Id": requestId,
    ...CALLER,
  };
  if (init.body !== undefined) headers["Content-Type"] = "application/json";
  if (init.token) headers.Cookie = `XPLANID=${init.token}`;
  const response = await fetch(`${harness.platform.baseUrl}${path}`, {
    method: init.method ?? "GET",
    headers,
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const text = await response.text();
  const cookie = response.headers.getSetCookie().find((c) => c.startsWith("XPLANID="));
  const auth = lines
    .map((line) => JSON.parse(line) as AuthLine)
    .filter((line) => line.requestId === requestId && line.message === "auth");
  return {
    status: response.status,
    body: (text ? JSON.parse(text) : null) as T,
    auth,
    token: cookie ? decodeURIComponent(cookie.split(";")[0]!.slice("XPLANID=".length)) : null,
  };
}

const idOf = (username: string) =>
  harness.platform.db.select().from(users).where(eq(users.usernameKey, username)).get()!.id;
const login = (username: string, password: string) =>
  call<{ login_ticket?: string; memorableQuestions?: number[] }>("/auth/login", {
    method: "POST",
    body: { username, password, user_type: "client" },
  });
/** The one `auth` line of an answer. */
const only = (answer: { auth: AuthLine[] }) => {
  expect(answer.auth).toHaveLength(1);
  return answer.auth[0]!;
};

/** Everything typed as a secret in this file: none may be written. */
const typed = new Set<string>([DEMO_PASSWORD]);
const secret = (value: string) => {
  typed.add(value);
  return value;
};

describe("the platform's authentication log", () => {
  it("logs a password sign-in's success and failure with the user's id, and an unknown username's without", async () => {
    const wrong = await login("demo.client", secret("Not-the-password-1"));
    expect(wrong.status).toBe(401);
    expect(only(wrong)).toMatchObject({
      level: "warn",
      outcome: "failure",
      step: "password",
      userId: idOf("demo.client"),
      status: 401,
      reason: "Either your username or your password is incorrect.",
    });
    const right = await login("demo.client", DEMO_PASSWORD);
    expect(only(right)).toMatchObject({
      level: "info",
      outcome: "success",
      step: "password",
      userId: idOf("demo.client"),
    });
    const unknown = await login("nobody.here", secret("Some-guess-22"));
    expect(only(unknown)).toMatchObject({ outcome: "failure", step: "password", userId: null });

    const signedOut = await call("/resourceful/session", { method: "DELETE", token: right.token! });
    expect(only(signedOut)).toMatchObject({ outcome: "success", step: "signOut", userId: idOf("demo.client") });
  });

  it("logs each sign-in step: a one-time code (by its method) and the memorable characters", async () => {
    const ticket = (await login("demo.mfa", DEMO_PASSWORD)).body.login_ticket!;
    const sent = secret(await harness.platform.latestCode("+447700900123"));
    const badCode = await call("/auth/tfa/validate", {
      method: "POST",
      body: { login_ticket: ticket, code: secret(sent === "000000" ? "111111" : "000000") },
    });
    expect(only(badCode)).toMatchObject({ outcome: "failure", step: "code", method: "sms", userId: idOf("demo.mfa") });
    const code = secret(await harness.platform.latestCode("+447700900123"));
    const goodCode = await call("/auth/tfa/validate", { method: "POST", body: { login_ticket: ticket, code } });
    expect(only(goodCode)).toMatchObject({ outcome: "success", step: "code", method: "sms", userId: idOf("demo.mfa") });

    const started = await login("demo.memorable", DEMO_PASSWORD);
    const word = [..."chestnut"];
    const positions = started.body.memorableQuestions!;
    const badChars = await call<{ login_ticket: string; memorableQuestions: number[] }>("/auth/memorable", {
      method: "POST",
      body: { login_ticket: started.body.login_ticket, answers: ["#", "#", "#"] },
    });
    expect(only(badChars)).toMatchObject({ outcome: "failure", step: "memorable", userId: idOf("demo.memorable") });
    const again = badChars.body.memorableQuestions ?? positions;
    const goodChars = await call("/auth/memorable", {
      method: "POST",
      body: { login_ticket: badChars.body.login_ticket, answers: again.map((p) => word[p]!) },
    });
    expect(only(goodChars)).toMatchObject({ outcome: "success", step: "memorable", userId: idOf("demo.memorable") });
  });

  it("tells a software token's code used again apart from a wrong one (ASVS V2.8.5, decision 181)", async () => {
    const key = base32Decode(DEMO_TOKEN_SECRET);
    const code = secret(totp(key, harness.platform.clock.now().getTime()));
    const first = await login("demo.token", DEMO_PASSWORD);
    const used = await call("/auth/tfa/validate", {
      method: "POST",
      body: { login_ticket: first.body.login_ticket, code },
    });
    expect(only(used)).toMatchObject({ outcome: "success", step: "code", method: "token" });

    const again = await login("demo.token", DEMO_PASSWORD);
    const replay = await call<{ api_message: string; login_ticket: string }>("/auth/tfa/validate", {
      method: "POST",
      body: { login_ticket: again.body.login_ticket, code },
    });
    const wrong = await call("/auth/tfa/validate", {
      method: "POST",
      body: { login_ticket: replay.body.login_ticket, code: secret(code === "000000" ? "111111" : "000000") },
    });
    // the same answer to the person typing it
    expect(replay.status).toBe(401);
    expect(wrong.status).toBe(401);
    expect(replay.body.api_message).toBe((wrong.body as { api_message: string }).api_message);
    // told apart in the log only
    expect(only(replay)).toMatchObject({
      outcome: "failure",
      step: "code",
      method: "token",
      userId: idOf("demo.token"),
      reused: true,
    });
    expect(only(wrong)).toMatchObject({ outcome: "failure", step: "code", method: "token" });
    expect(only(wrong).reused).toBeUndefined();
    harness.platform.clock.advance(30_000);
    const next = await call("/auth/tfa/validate", {
      method: "POST",
      body: {
        login_ticket: replay.body.login_ticket,
        code: secret(totp(key, harness.platform.clock.now().getTime())),
      },
    });
    expect(only(next)).toMatchObject({ outcome: "success", step: "code" });
  });

  it("logs the current password asked again before a sensitive change (decision 179)", async () => {
    const right = await login("demo.messages", DEMO_PASSWORD);
    const wrong = await call("/resourceful/session/sessions", {
      method: "DELETE",
      token: right.token!,
      body: { current_password: secret("Not-the-password-7") },
    });
    expect(only(wrong)).toMatchObject({
      outcome: "failure",
      step: "endOtherSessions",
      userId: idOf("demo.messages"),
      reason: "The current password is incorrect.",
    });
    const options = await call("/resourceful/session/passkey/registration/options", {
      method: "POST",
      token: right.token!,
      body: { current_password: DEMO_PASSWORD },
    });
    expect(only(options)).toMatchObject({
      outcome: "success",
      step: "addPasskeyOptions",
      userId: idOf("demo.messages"),
    });
  });

  it("logs recovery: the reset's request, a wrong and a right code, and the username reminder", async () => {
    const partner = idOf("demo.partner");
    const started = await call<{ user_id: string }>("/resourceful/forgotten_password", {
      method: "POST",
      body: { username: "demo.partner" },
    });
    expect(only(started)).toMatchObject({ outcome: "success", step: "resetRequest", userId: partner });
    const code = secret((await harness.platform.outbox("demo.partner"))[0]!.code!);
    const reference = started.body.user_id;
    const wrongCode = secret(code === "00000000" ? "11111111" : "00000000");
    const bad = await call(
      `/resourceful/forgotten_password?user_id=${encodeURIComponent(reference)}&reset_code=${wrongCode}`,
    );
    expect(only(bad)).toMatchObject({ outcome: "failure", step: "resetCode", method: "code", userId: partner });
    const done = await call("/resourceful/forgotten_password", {
      method: "PUT",
      body: { user_id: reference, reset_code: code, new_password: secret("Brand-new-pass-9") },
    });
    expect(only(done)).toMatchObject({ outcome: "success", step: "reset", method: "code", userId: partner });

    const reminded = await call("/resourceful/forgot/username", {
      method: "POST",
      body: { preferred_email: "eleanor.hartley@example.com", role_type: "client", dob: "1968-04-12" },
    });
    expect(only(reminded)).toMatchObject({ outcome: "success", step: "usernameReminder", userId: idOf("demo.client") });
    const notFound = await call("/resourceful/forgot/username", {
      method: "POST",
      body: { preferred_email: "nobody@example.com", role_type: "client", dob: "1968-04-12" },
    });
    expect(only(notFound)).toMatchObject({ outcome: "failure", step: "usernameReminder", userId: null });
  });

  it("logs the failure that locks the account, and the refusals of a locked account", async () => {
    const lockout = idOf("demo.lockout");
    for (let attempt = 1; attempt <= 4; attempt++)
      expect(only(await login("demo.lockout", secret(`Wrong-${attempt}-pass`))).outcome).toBe("failure");
    const locking = only(await login("demo.lockout", secret("Wrong-5-pass")));
    expect(locking).toMatchObject({
      outcome: "locked",
      lockedNow: true,
      step: "password",
      userId: lockout,
      reason: "Account has been disabled.",
    });
    const refused = only(await login("demo.lockout", DEMO_PASSWORD));
    expect(refused).toMatchObject({ outcome: "locked", step: "password", userId: lockout });
    expect(refused.lockedNow).toBeUndefined();
  });

  it("never writes what was typed as a secret", () => {
    expect(lines.length).toBeGreaterThan(10);
    const written = lines.join("\n");
    for (const value of typed) expect(written, value).not.toContain(value);
  });
});
