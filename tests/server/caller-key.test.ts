import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readEnv } from "../../server/env";
import { CALLER_KEY_HEADER, callerKeyChecker } from "../../server/lib/caller-key";
import { withSecretFiles } from "../../server/lib/secret-files";
import { DEMO_PASSWORD } from "../../server/seed";
import { type ErrorAnswer, type Platform, startPlatform, TEST_CALLER_KEY } from "./harness";

// what production asks for besides what this file is about (each refused apart when missing)
const PRODUCTION_REST = {
  PLATFORM_SECRET_KEYS: "5e".repeat(32),
  PLATFORM_PEPPER_KEYS: "9e".repeat(32),
  PLATFORM_CLAMD_ADDRESS: "off",
  PLATFORM_DB_KEYS: "db".repeat(32),
} as const;

// ASVS V1.2.2 (docs/decisions/186): the platform answers only a caller that sends one of
// PLATFORM_CALLER_KEYS in X-Caller-Key; V1.6.2 (docs/decisions/187): secrets from NAME_FILE.

const OLD_KEY = "old-caller-key-fedcba9876543210fedcba9876543210";
const PRODUCTION = {
  NODE_ENV: "production",
  ...PRODUCTION_REST,
  PLATFORM_SECRET_KEYS: "k".repeat(64),
  PLATFORM_DB_KEYS: "d".repeat(64),
} as const;

describe("a platform with caller keys", () => {
  let platform: Platform;
  beforeAll(async () => {
    platform = await startPlatform({ callerKeys: [TEST_CALLER_KEY, OLD_KEY] });
  });
  afterAll(() => platform.close());

  const raw = (path: string, headers: Record<string, string>, init: RequestInit = {}) =>
    fetch(`${platform.baseUrl}${path}`, { ...init, headers: { Accept: "application/json", ...headers } });

  it("refuses a call without a key or with a wrong one, on every path, before anything is read", async () => {
    const wrong: Array<Record<string, string>> = [
      {},
      { [CALLER_KEY_HEADER]: "guess" },
      { [CALLER_KEY_HEADER]: `${TEST_CALLER_KEY}x` },
    ];
    for (const headers of wrong) {
      for (const path of ["/xplan/health", "/resourceful/site", "/resourceful/session/user", "/dev/outbox?to=x"]) {
        const answer = await raw(path, headers);
        expect(answer.status, `${path} ${JSON.stringify(headers)}`).toBe(401);
        expect(((await answer.json()) as ErrorAnswer).api_message).toBe("Caller not authenticated");
      }
    }
  });

  it("answers a caller with any key of the list (the new one and the one being retired)", async () => {
    for (const key of [TEST_CALLER_KEY, OLD_KEY]) {
      const answer = await raw("/xplan/health", { [CALLER_KEY_HEADER]: key });
      expect(answer.status).toBe(200);
      await answer.text();
    }
  });

  it("takes no sign-in, and so no client address, from a caller without the key", async () => {
    const headers = {
      "Content-Type": "application/json",
      "X-Xplan-Auth-Failure-Action": "error",
      "X-Client-Address": "203.0.113.9",
    };
    const body = JSON.stringify({ username: "demo.client", password: DEMO_PASSWORD, user_type: "client" });
    const refused = await raw("/auth/login", headers, { method: "POST", body });
    expect(refused.status).toBe(401);
    expect(refused.headers.getSetCookie()).toEqual([]);
    const signedIn = await raw("/auth/login", { ...headers, [CALLER_KEY_HEADER]: OLD_KEY }, { method: "POST", body });
    expect(signedIn.status).toBe(200);
    expect(signedIn.headers.getSetCookie().some((c) => c.startsWith("XPLANID="))).toBe(true);
  });
});

describe("a platform without caller keys", () => {
  it("in production answers no one (it cannot tell the portal from anyone else)", async () => {
    const production = await startPlatform({ nodeEnv: "production", callerKeys: null, devEndpoints: false });
    try {
      const answer = await fetch(`${production.baseUrl}/xplan/health`, { headers: { Host: "127.0.0.1" } });
      expect(answer.status).toBe(401);
      await answer.text();
    } finally {
      await production.close();
    }
  });

  it("in development answers any caller", async () => {
    const development = await startPlatform({ nodeEnv: "development", callerKeys: null });
    try {
      const answer = await fetch(`${development.baseUrl}/xplan/health`);
      expect(answer.status).toBe(200);
      await answer.text();
    } finally {
      await development.close();
    }
  });
});

describe("the caller key check", () => {
  const check = callerKeyChecker(["a".repeat(40), "b".repeat(40)]);
  it("knows each key of the list, and nothing else", () => {
    expect(check("a".repeat(40))).toBe(true);
    expect(check("b".repeat(40))).toBe(true);
    expect(check("a".repeat(39))).toBe(false);
    expect(check(`${"a".repeat(40)} `)).toBe(false);
    expect(check("")).toBe(false);
    expect(check(undefined)).toBe(false);
    expect(check(["a".repeat(40)])).toBe(false);
  });
});

describe("PLATFORM_CALLER_KEYS", () => {
  it("is required in production, each key at least 32 bytes, and a list", () => {
    expect(() => readEnv({ ...PRODUCTION })).toThrow(/PLATFORM_CALLER_KEYS: required in production/);
    expect(() => readEnv({ ...PRODUCTION, PLATFORM_CALLER_KEYS: "short" })).toThrow(/the key is shorter than 32 bytes/);
    expect(() => readEnv({ ...PRODUCTION, PLATFORM_CALLER_KEYS: `${"a".repeat(64)},short` })).toThrow(
      /PLATFORM_CALLER_KEYS: key 2 of 2 is shorter/,
    );
    expect(
      readEnv({ ...PRODUCTION, PLATFORM_CALLER_KEYS: ` ${"a".repeat(64)} , ${"b".repeat(64)} ` }).callerKeys,
    ).toEqual(["a".repeat(64), "b".repeat(64)]);
    expect(readEnv({ NODE_ENV: "development" }).callerKeys).toBeUndefined();
    expect(() => readEnv({ NODE_ENV: "development", PLATFORM_CALLER_KEYS: " , " })).toThrow(/no key in the list/);
  });

  it("never names a key in a refusal", () => {
    const secret = "leaky-but-short";
    expect(() => readEnv({ ...PRODUCTION, PLATFORM_CALLER_KEYS: secret })).toThrow(
      expect.objectContaining({ message: expect.not.stringContaining(secret) }),
    );
  });
});

describe("secrets from files (NAME_FILE)", () => {
  const files: Record<string, string> = {
    "/run/secrets/caller": `${"c".repeat(64)}\n`,
    "/run/secrets/sealing": `${"s".repeat(64)},${"o".repeat(64)}\r\n`,
    "/run/secrets/pepper": `${"p".repeat(64)}\n`,
  };
  const read = (path: string) => {
    if (path in files) return files[path]!;
    throw Object.assign(new Error(`ENOENT: ${path}`), { code: "ENOENT" });
  };

  it("reads the platform's keys from the files their _FILE variables name, without the line end", () => {
    const env = readEnv(
      {
        NODE_ENV: "production",
        ...PRODUCTION_REST,
        PLATFORM_SECRET_KEYS: undefined,
        PLATFORM_PEPPER_KEYS: undefined,
        PLATFORM_DB_KEYS: "d".repeat(64),
        PLATFORM_SECRET_KEYS_FILE: "/run/secrets/sealing",
        PLATFORM_PEPPER_KEYS_FILE: "/run/secrets/pepper",
        PLATFORM_CALLER_KEYS_FILE: "/run/secrets/caller",
      },
      read,
    );
    expect(env.secretKeys).toEqual(["s".repeat(64), "o".repeat(64)]);
    expect(env.pepperKeys).toEqual(["p".repeat(64)]);
    expect(env.callerKeys).toEqual(["c".repeat(64)]);
  });

  it("refuses a variable set both ways, and a file it cannot read, naming the file, not what it holds", () => {
    expect(() =>
      readEnv(
        { ...PRODUCTION, PLATFORM_CALLER_KEYS: "c".repeat(64), PLATFORM_CALLER_KEYS_FILE: "/run/secrets/caller" },
        read,
      ),
    ).toThrow(/PLATFORM_CALLER_KEYS and PLATFORM_CALLER_KEYS_FILE are both set/);
    expect(() => readEnv({ ...PRODUCTION, PLATFORM_CALLER_KEYS_FILE: "/run/secrets/missing" }, read)).toThrow(
      "invalid platform environment: PLATFORM_CALLER_KEYS_FILE: cannot read /run/secrets/missing (ENOENT)",
    );
  });

  it("leaves the other variables as they are, and an empty _FILE unused", () => {
    expect(withSecretFiles({ A: "1", A_FILE: "", B: "2" }, ["A", "B"], read)).toEqual({ A: "1", A_FILE: "", B: "2" });
  });
});
