import { readFileSync } from "node:fs";
import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { resealSecrets } from "../../server/db/sealed-secrets";
import { loginTickets, pendingMfaDevices, users } from "../../server/db/schema";
import { readEnv } from "../../server/env";
import { tampered } from "../tamper";
import {
  DEVELOPMENT_SECRET_KEY,
  isSealed,
  openSecret,
  sealSecret,
  useSecretKeys,
} from "../../server/lib/secrets-at-rest";
import { DEMO_TOKEN_SECRET } from "../../server/seed/settings";
import { createSession, findCaller, passwordHashOf } from "../../server/sessions";
import { withPlatform } from "./harness";

// what production asks for besides what this file is about (each refused apart when missing)
const PRODUCTION_REST = {
  PLATFORM_PEPPER_KEYS: "9e".repeat(32),
  PLATFORM_CLAMD_ADDRESS: "off",
  PLATFORM_CALLER_KEYS: "ca".repeat(32),
  PLATFORM_DB_KEYS: "db".repeat(32),
} as const;

// ASVS V2.8.2, V8.3.7 (docs/decisions/172): TOTP secrets, memorable words and the sign-in steps'
// state are sealed (AES-256-GCM) with a key from the platform's environment; a list rotates it.
const harness = withPlatform();

const raw = (sql: string, ...params: unknown[]) =>
  harness.platform.db.$client.prepare(sql).all(...params) as Array<Record<string, string | null>>;

afterEach(() => useSecretKeys([DEVELOPMENT_SECRET_KEY]));

describe("secrets at rest", () => {
  it("are sealed in the database, and nowhere in its file in plain", () => {
    const stored = raw(
      "select mfa_totp_secret, memorable_word from users where username_key in (?, ?)",
      "demo.token",
      "demo.memorable",
    );
    const values = stored.flatMap((r) => [r.mfa_totp_secret, r.memorable_word]).filter((v) => v !== null);
    expect(values).toHaveLength(2);
    for (const value of values) expect(value).toMatch(/^enc1\.[0-9a-f]{8}\.[A-Za-z0-9_-]+$/);
    // what the code reads is the plain value
    const token = harness.platform.db.select().from(users).where(eq(users.usernameKey, "demo.token")).get()!;
    expect(token.mfaTotpSecret).toBe(DEMO_TOKEN_SECRET);
    const memorable = harness.platform.db.select().from(users).where(eq(users.usernameKey, "demo.memorable")).get()!;
    expect(memorable.memorableWord).toBe("chestnut");
    // not in the file either (the write-ahead log folded in first)
    harness.platform.db.$client.pragma("wal_checkpoint(TRUNCATE)");
    const file = readFileSync(harness.platform.db.$client.name);
    expect(file.includes(Buffer.from(DEMO_TOKEN_SECRET))).toBe(false);
    expect(file.includes(Buffer.from("chestnut"))).toBe(false);
  });

  it("stay out of the caller's row that every call reads; a password's hash is read on its own", () => {
    const { db, clock } = harness.platform;
    const user = db.select().from(users).where(eq(users.usernameKey, "demo.token")).get()!;
    const caller = findCaller(db, clock, createSession(db, clock, user.id))!;
    expect(caller.user).toMatchObject({ id: user.id, username: user.username, loginMethod: user.loginMethod });
    for (const secret of ["passwordHash", "mfaTotpSecret", "memorableWord"])
      expect(caller.user).not.toHaveProperty(secret);
    expect(passwordHashOf(db, user.id)).toBe(user.passwordHash);
  });

  it("seals a token being enrolled: the pending device and the sign-in step's state", async () => {
    const first = await harness.platform.login("demo.mfa");
    const token = (
      await harness.platform.step("/auth/tfa/validate", {
        login_ticket: first.body.login_ticket,
        code: await harness.platform.latestCode("demo.mfa"),
      })
    ).token!;
    const answer = await harness.platform.call<{ token_secret: string }>("/resourceful/session/mfa/method", {
      method: "PUT",
      token,
      body: { mfaMethod: "token", password: "Demo-pass-1" },
    });
    expect(answer.status).toBe(200);
    const secret = answer.body.token_secret;
    expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
    const pending = raw("select totp_secret from pending_mfa_devices where totp_secret is not null");
    expect(pending.length).toBeGreaterThan(0);
    for (const row of pending) {
      expect(isSealed(row.totp_secret!)).toBe(true);
      expect(row.totp_secret).not.toContain(secret);
    }
    expect(
      harness.platform.db
        .select()
        .from(pendingMfaDevices)
        .all()
        .map((d) => d.totpSecret),
    ).toContain(secret);

    // an enrolment at sign-in keeps the device (and its secret) in the ticket's state
    const started = await harness.platform.login("demo.enrol");
    const device = await harness.platform.step("/auth/tfa/device", {
      login_ticket: started.body.login_ticket,
      method: "token",
    });
    const enrolling = (device.body as { token_secret?: string }).token_secret;
    expect(enrolling).toMatch(/^[A-Z2-7]{16,}$/);
    const states = raw("select state from login_tickets").map((r) => r.state!);
    expect(states.every(isSealed)).toBe(true);
    expect(states.some((s) => s.includes(enrolling!))).toBe(false);
    expect(
      harness.platform.db
        .select()
        .from(loginTickets)
        .all()
        .some((t) => t.state.includes(enrolling!)),
    ).toBe(true);
  });

  it("seals values written before, when the platform starts", () => {
    const { db } = harness.platform;
    const id = db.select().from(users).where(eq(users.usernameKey, "demo.noword")).get()!.id;
    db.$client.prepare("update users set memorable_word = 'plainword' where id = ?").run(id);
    // read before it is sealed: as it is
    expect(db.select().from(users).where(eq(users.id, id)).get()!.memorableWord).toBe("plainword");
    expect(resealSecrets(db)).toBe(1);
    expect(raw("select memorable_word from users where id = ?", id)[0]!.memorable_word).toMatch(/^enc1\./);
    expect(db.select().from(users).where(eq(users.id, id)).get()!.memorableWord).toBe("plainword");
    // nothing left to do
    expect(resealSecrets(db)).toBe(0);
    db.update(users).set({ memorableWord: null }).where(eq(users.id, id)).run();
  });

  it("rotates: the first key seals, every key opens, and start-up seals again with the new one", () => {
    const { db } = harness.platform;
    const before = raw("select memorable_word from users where username_key = ?", "demo.memorable")[0]!.memorable_word!;
    const newKey = "n".repeat(64);
    useSecretKeys([newKey, DEVELOPMENT_SECRET_KEY]);
    expect(db.select().from(users).where(eq(users.usernameKey, "demo.memorable")).get()!.memorableWord).toBe(
      "chestnut",
    );
    expect(resealSecrets(db)).toBeGreaterThanOrEqual(2);
    const after = raw("select memorable_word from users where username_key = ?", "demo.memorable")[0]!.memorable_word!;
    expect(after.split(".")[1]).not.toBe(before.split(".")[1]);
    // the old key can go now
    useSecretKeys([newKey]);
    expect(db.select().from(users).where(eq(users.usernameKey, "demo.memorable")).get()!.memorableWord).toBe(
      "chestnut",
    );
    // a key that is not in the list opens nothing: the platform stops rather than go on wrong
    useSecretKeys(["o".repeat(64)]);
    expect(() => db.select().from(users).where(eq(users.usernameKey, "demo.memorable")).get()).toThrow(
      /not in PLATFORM_SECRET_KEYS/,
    );
    // back, for the other tests
    useSecretKeys([DEVELOPMENT_SECRET_KEY, newKey]);
    resealSecrets(db);
  });

  it("opens a value only in its own column, and not once tampered with", () => {
    const sealed = sealSecret("chestnut", "memorable_word");
    expect(openSecret(sealed, "memorable_word")).toBe("chestnut");
    expect(() => openSecret(sealed, "mfa_totp_secret")).toThrow();
    expect(() => openSecret(tampered(sealed), "memorable_word")).toThrow();
    // each sealing differs: the same word twice does not show as the same value
    expect(sealSecret("chestnut", "memorable_word")).not.toBe(sealed);
  });
});

describe("PLATFORM_SECRET_KEYS", () => {
  it("is required in production, random and long, and never the development key", () => {
    expect(() => readEnv({ NODE_ENV: "production", ...PRODUCTION_REST })).toThrow(
      /PLATFORM_SECRET_KEYS: required in production/,
    );
    expect(() => readEnv({ NODE_ENV: "production", ...PRODUCTION_REST, PLATFORM_SECRET_KEYS: "short" })).toThrow(
      /shorter than 32 bytes/,
    );
    expect(() =>
      readEnv({ NODE_ENV: "production", ...PRODUCTION_REST, PLATFORM_SECRET_KEYS: DEVELOPMENT_SECRET_KEY }),
    ).toThrow(/public development key/);
    expect(() =>
      readEnv({ NODE_ENV: "production", ...PRODUCTION_REST, PLATFORM_SECRET_KEYS: `${"a".repeat(64)},short` }),
    ).toThrow(/key 2 of 2 is shorter/);
    expect(
      readEnv({
        NODE_ENV: "production",
        ...PRODUCTION_REST,
        PLATFORM_SECRET_KEYS: ` ${"a".repeat(64)} , ${"b".repeat(64)} `,
        PLATFORM_CLAMD_ADDRESS: "off",
        PLATFORM_PEPPER_KEYS: "c".repeat(64),
        PLATFORM_CALLER_KEYS: "c".repeat(64),
        PLATFORM_DB_KEYS: "d".repeat(64),
      }).secretKeys,
    ).toEqual(["a".repeat(64), "b".repeat(64)]);
    expect(readEnv({ NODE_ENV: "development" }).secretKeys).toBeUndefined();
    expect(() => readEnv({ NODE_ENV: "development", PLATFORM_SECRET_KEYS: " , " })).toThrow(/no key/);
  });
});
