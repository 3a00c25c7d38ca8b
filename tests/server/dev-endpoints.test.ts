import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { desc, eq } from "drizzle-orm";
import { printOutboxMessage } from "../../server/domain/accounts";
import { outbox } from "../../server/db/schema";
import { readEnv } from "../../server/env";
import { type Platform, startPlatform } from "./harness";

// Issue 39 finding 6 (docs/decisions/168): the platform's /dev/* endpoints (the outbox with every
// reset and sign-in code, unlock, maintenance, settings, copies of logins) answer only when
// PLATFORM_DEV_ENDPOINTS=true, never in production; without them the platform prints a demo user's
// messages on its console, where someone trying the demo reads the codes.

describe("PLATFORM_DEV_ENDPOINTS", () => {
  it("is off unless set to true, and refused in production", () => {
    expect(readEnv({ NODE_ENV: "development" }).devEndpoints).toBe(false);
    expect(readEnv({ NODE_ENV: "test" }).devEndpoints).toBe(false);
    expect(readEnv({ NODE_ENV: "development", PLATFORM_DEV_ENDPOINTS: "false" }).devEndpoints).toBe(false);
    expect(readEnv({ NODE_ENV: "development", PLATFORM_DEV_ENDPOINTS: "true" }).devEndpoints).toBe(true);
    expect(() => readEnv({ NODE_ENV: "development", PLATFORM_DEV_ENDPOINTS: "yes" })).toThrow(/PLATFORM_DEV_ENDPOINTS/);
    // a production key, so that the refusal is the endpoints' (docs/decisions/172)
    const production = {
      NODE_ENV: "production",
      PLATFORM_SECRET_KEYS: "9f".repeat(32),
      PLATFORM_PEPPER_KEYS: "8e".repeat(32),
      PLATFORM_CLAMD_ADDRESS: "off",
      PLATFORM_CALLER_KEYS: "c".repeat(64),
      PLATFORM_DB_KEYS: "d".repeat(64),
    } as const;
    expect(() => readEnv({ ...production, PLATFORM_DEV_ENDPOINTS: "true" })).toThrow(
      /PLATFORM_DEV_ENDPOINTS=true is refused in production/,
    );
  });
});

describe("a platform started without PLATFORM_DEV_ENDPOINTS (as npm start does)", () => {
  let platform: Platform;
  const printed: string[] = [];

  beforeAll(async () => {
    platform = await startPlatform({
      nodeEnv: "development",
      devEndpoints: readEnv({ NODE_ENV: "development" }).devEndpoints,
      console: (text) => printed.push(text),
    });
  });
  afterAll(() => platform?.close());

  it("answers 404 on every /dev endpoint, and does what they would not", async () => {
    const calls: Array<[string, string, unknown?]> = [
      ["GET", "/dev/outbox"],
      ["GET", "/dev/outbox?to=demo.mfa"],
      ["POST", "/dev/users/demo.lockout/unlock", {}],
      ["POST", "/dev/users/demo.client/copy", { username: "stranger.copy" }],
      ["PUT", "/dev/maintenance", { maintenance: true }],
      ["PUT", "/dev/settings/usernameHint", { value: "x" }],
      ["PUT", "/dev/users/demo.client/client_access_level", { client_access_level: 0 }],
      ["POST", "/dev/report-jobs/fail-next", {}],
    ];
    for (const [method, path, body] of calls) {
      const answer = await platform.call(path, { method, body });
      expect(answer.status, `${method} ${path}`).toBe(404);
    }
    // nothing was done: no copy, no maintenance
    expect((await platform.login("stranger.copy")).status).not.toBe(200);
    expect((await platform.call("/xplan/health")).status).toBe(200);
  });

  it("prints a demo user's sign-in code on its console", async () => {
    printed.length = 0;
    const started = await platform.login("demo.mfa");
    expect(started.body.login_status).toBe("MfaRequired");
    const sent = platform.db
      .select()
      .from(outbox)
      .where(eq(outbox.username, "demo.mfa"))
      .orderBy(desc(outbox.id))
      .get();
    expect(sent?.code).toMatch(/^\d{6}$/);
    const text = printed.join("");
    expect(text).toContain("outbox: sms to");
    expect(text).toContain("(demo.mfa)");
    expect(text).toContain(`Code: ${sent!.code}`);
  });
});

describe("a platform with PLATFORM_DEV_ENDPOINTS=true (the tests, the journeys)", () => {
  it("answers /dev/outbox and prints nothing", async () => {
    const printed: string[] = [];
    const platform = await startPlatform({ devEndpoints: true, console: (text) => printed.push(text) });
    try {
      await platform.login("demo.mfa");
      expect(await platform.latestCode("demo.mfa")).toMatch(/^\d{6}$/);
      expect(printed).toEqual([]);
    } finally {
      await platform.close();
    }
  });
});

describe("the console's lines", () => {
  it("show a demo user's message with its subject and code, and nobody else's", () => {
    const printed: string[] = [];
    const print = (text: string) => printed.push(text);
    printOutboxMessage(
      {
        to: "ellie@example.com",
        username: "demo.client",
        channel: "email",
        subject: "Reset",
        body: "Your code is 123456",
        code: "123456",
      },
      print,
    );
    printOutboxMessage({ to: "x@example.com", username: "someone.else", channel: "email", body: "private" }, print);
    expect(printed).toEqual([
      "--- outbox: email to ellie@example.com (demo.client) ---\nSubject: Reset\nYour code is 123456\nCode: 123456\n---\n",
    ]);
  });
});
