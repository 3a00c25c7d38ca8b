import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { createServer } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseEnv } from "~/runtime/env.server";
import { createRateLimits, normaliseUsername, type RateLimits } from "./rate-limit.server";

// docs/decisions/046 and 115: sign-in and recovery limits, kept in memory for one instance and in
// Redis when REDIS_URL is set, so that instances share them. The Redis cases run against a real
// redis-server started here (Debian's package, which `.ci/run` installs).

const LIMITS = {
  signIn: { max: 3, windowMs: 60_000 },
  recovery: { max: 2, windowMs: 120_000 },
  passkeyOptions: { max: 5, windowMs: 60_000 },
  signInFailures: { max: 2, windowMs: 300_000 },
  deviceFailures: { max: 2, windowMs: 300_000 },
};

/** A password sign-in of `username` from a browser not known for it (decision 173). */
const fromUnknown = (username: string) => ({ username, device: null });
/** The same from the browser whose device cookie for the username has the nonce `device`. */
const fromDevice = (username: string, device: string) => ({ username, device });

const REDIS_SERVER = process.env.REDIS_SERVER ?? "/usr/bin/redis-server";
let redis: ChildProcess | null = null;
let redisUrl = "";
// the store asks for a password (AUTH), as README "Deploy" tells an operator to set (docs/decisions/186)
const REDIS_PASSWORD = `pw-${Math.random().toString(36).slice(2)}`;
let redisPort = 0;
const opened: RateLimits[] = [];

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

beforeAll(async () => {
  if (!existsSync(REDIS_SERVER)) {
    throw new Error(
      `${REDIS_SERVER} is missing: install Debian's redis-server (.ci/run does) to run the shared-limit tests`,
    );
  }
  const port = await freePort();
  redisPort = port;
  redis = spawn(
    REDIS_SERVER,
    [
      "--port",
      String(port),
      "--bind",
      "127.0.0.1",
      "--save",
      "",
      "--appendonly",
      "no",
      "--requirepass",
      REDIS_PASSWORD,
    ],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  await new Promise<void>((resolve, reject) => {
    let out = "";
    const timer = setTimeout(() => reject(new Error(`redis-server did not start: ${out}`)), 10_000);
    redis!.stdout!.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes("Ready to accept connections")) {
        clearTimeout(timer);
        resolve();
      }
    });
    redis!.on("exit", (code) => reject(new Error(`redis-server exited with ${code}: ${out}`)));
  });
  redisUrl = `redis://:${REDIS_PASSWORD}@127.0.0.1:${port}`;
}, 20_000);

afterAll(async () => {
  await Promise.all(opened.map((limits) => limits.close()));
  if (redis && redis.exitCode === null) {
    redis.kill("SIGCONT");
    redis.kill("SIGTERM");
  }
});

type Warning = { message: string; fields?: Record<string, unknown> };

function limitsOf(options: { redisUrl?: string; keyPrefix?: string; warnings?: Warning[] } = {}) {
  const limits = createRateLimits({
    limits: LIMITS,
    redisUrl: options.redisUrl,
    keyPrefix: options.keyPrefix ?? `test-${Math.random().toString(36).slice(2)}`,
    log: { warn: (message, fields) => options.warnings?.push({ message, fields }), info: () => {} },
    commandTimeoutMs: 300,
  });
  opened.push(limits);
  return limits;
}

describe("in one instance's memory (no REDIS_URL)", () => {
  it("lets the first posts of a window through and refuses the rest with the wait", async () => {
    const limits = limitsOf();
    expect(limits.shared).toBe(false);
    for (let i = 0; i < 3; i++) expect(await limits.hit("signIn", "1.2.3.4")).toBe(0);
    const wait = await limits.hit("signIn", "1.2.3.4");
    expect(wait).toBeGreaterThan(55_000);
    expect(wait).toBeLessThanOrEqual(60_000);
  });

  it("counts each address and each bucket apart", async () => {
    const limits = limitsOf();
    for (let i = 0; i < 4; i++) await limits.hit("signIn", "1.1.1.1");
    expect(await limits.hit("signIn", "1.1.1.1")).toBeGreaterThan(0);
    expect(await limits.hit("signIn", "2.2.2.2")).toBe(0);
    expect(await limits.hit("recovery", "1.1.1.1")).toBe(0);
  });

  it("refuses an unknown bucket", async () => {
    await expect(limitsOf().hit("other" as "signIn", "1.1.1.1")).rejects.toThrow(/unknown rate-limit bucket/);
  });
});

describe("failed sign-ins per username", () => {
  it("normalises the username: trimmed and case-folded", () => {
    expect(normaliseUsername("  Demo.Client ")).toBe("demo.client");
    expect(normaliseUsername("DEMO.CLIENT")).toBe(normaliseUsername("demo.client"));
  });

  it("refuses a username after its failures, from any address, until a success clears them", async () => {
    const limits = limitsOf();
    expect(await limits.signInAttempt(fromUnknown("demo.client"))).toBe(0);
    expect(await limits.signInAttempt(fromUnknown(" DEMO.CLIENT"))).toBe(0);
    const wait = await limits.signInAttempt(fromUnknown("Demo.Client"));
    expect(wait).toBeGreaterThan(290_000);
    expect(wait).toBeLessThanOrEqual(300_000);
    // Another username is not affected.
    expect(await limits.signInAttempt(fromUnknown("demo.partner"))).toBe(0);
    await limits.signInSucceeded(fromUnknown("demo.client"));
    expect(await limits.signInAttempt(fromUnknown("demo.client"))).toBe(0);
  });

  it("takes back an attempt that did not fail (a fault, a locked account)", async () => {
    const limits = limitsOf();
    for (let i = 0; i < 5; i++) {
      expect(await limits.signInAttempt(fromUnknown("demo.client"))).toBe(0);
      await limits.signInNotFailed(fromUnknown("demo.client"));
    }
  });

  it("counts a known browser's failures apart from the unknown browsers' (decision 173)", async () => {
    const limits = limitsOf();
    // Strangers use up the username's count for unknown browsers...
    expect(await limits.signInAttempt(fromUnknown("demo.client"))).toBe(0);
    expect(await limits.signInAttempt(fromUnknown("demo.client"))).toBe(0);
    expect(await limits.signInAttempt(fromUnknown("demo.client"))).toBeGreaterThan(0);
    // ...and the owner's browser, known for the username, still has its own.
    expect(await limits.signInAttempt(fromDevice("demo.client", "owners-browser"))).toBe(0);
    expect(await limits.signInAttempt(fromDevice("Demo.Client ", "owners-browser"))).toBe(0);
    const wait = await limits.signInAttempt(fromDevice("demo.client", "owners-browser"));
    expect(wait).toBeGreaterThan(290_000);
    expect(wait).toBeLessThanOrEqual(300_000);
    // Each known browser apart; the same nonce for another username is another count.
    expect(await limits.signInAttempt(fromDevice("demo.client", "partners-laptop"))).toBe(0);
    expect(await limits.signInAttempt(fromDevice("demo.partner", "owners-browser"))).toBe(0);
  });

  it("forgets the unknown browsers' failures and this browser's on a success, but not other browsers'", async () => {
    const limits = limitsOf();
    for (let i = 0; i < 2; i++) {
      await limits.signInAttempt(fromUnknown("demo.client"));
      await limits.signInAttempt(fromDevice("demo.client", "owners-browser"));
      await limits.signInAttempt(fromDevice("demo.client", "old-laptop"));
    }
    await limits.signInSucceeded(fromDevice("demo.client", "owners-browser"));
    expect(await limits.signInAttempt(fromUnknown("demo.client"))).toBe(0);
    expect(await limits.signInAttempt(fromDevice("demo.client", "owners-browser"))).toBe(0);
    expect(await limits.signInAttempt(fromDevice("demo.client", "old-laptop"))).toBeGreaterThan(0);
  });

  it("takes back a known browser's attempt that did not fail", async () => {
    const limits = limitsOf();
    for (let i = 0; i < 5; i++) {
      expect(await limits.signInAttempt(fromDevice("demo.client", "owners-browser"))).toBe(0);
      await limits.signInNotFailed(fromDevice("demo.client", "owners-browser"));
    }
  });

  it("counts attempts made at the same time before any answer, so a burst cannot pass the limit", async () => {
    const limits = limitsOf();
    const waits = await Promise.all(Array.from({ length: 6 }, () => limits.signInAttempt(fromUnknown("demo.client"))));
    expect(waits.filter((w) => w === 0)).toHaveLength(2);
  });
});

describe("shared through Redis (REDIS_URL)", () => {
  it("two instances together allow the limit once, not twice", async () => {
    const keyPrefix = `shared-${Math.random().toString(36).slice(2)}`;
    const a = limitsOf({ redisUrl, keyPrefix });
    const b = limitsOf({ redisUrl, keyPrefix });
    expect(a.shared && b.shared).toBe(true);
    const answers: number[] = [];
    for (let i = 0; i < 6; i++) answers.push(await (i % 2 === 0 ? a : b).hit("signIn", "203.0.113.5"));
    expect(answers.slice(0, 3)).toEqual([0, 0, 0]);
    for (const wait of answers.slice(3)) {
      expect(wait).toBeGreaterThan(55_000);
      expect(wait).toBeLessThanOrEqual(60_000);
    }
  });

  it("shares a username's failures and its reset", async () => {
    const keyPrefix = `shared-${Math.random().toString(36).slice(2)}`;
    const a = limitsOf({ redisUrl, keyPrefix });
    const b = limitsOf({ redisUrl, keyPrefix });
    expect(await a.signInAttempt(fromUnknown("demo.client"))).toBe(0);
    expect(await b.signInAttempt(fromUnknown("Demo.Client"))).toBe(0);
    expect(await a.signInAttempt(fromUnknown("demo.client"))).toBeGreaterThan(0);
    expect(await b.signInAttempt(fromUnknown("demo.client"))).toBeGreaterThan(0);
    await a.signInSucceeded(fromUnknown("demo.client"));
    expect(await b.signInAttempt(fromUnknown("demo.client"))).toBe(0);
    // A burst on both instances at once: the limit once.
    await b.signInSucceeded(fromUnknown("demo.client"));
    const burst = await Promise.all(
      Array.from({ length: 8 }, (_, i) => (i % 2 ? a : b).signInAttempt(fromUnknown("demo.client"))),
    );
    expect(burst.filter((w) => w === 0)).toHaveLength(2);
  });

  it("shares a known browser's failures, apart from the unknown browsers'", async () => {
    const keyPrefix = `shared-${Math.random().toString(36).slice(2)}`;
    const a = limitsOf({ redisUrl, keyPrefix });
    const b = limitsOf({ redisUrl, keyPrefix });
    expect(await a.signInAttempt(fromUnknown("demo.client"))).toBe(0);
    expect(await b.signInAttempt(fromUnknown("demo.client"))).toBe(0);
    expect(await a.signInAttempt(fromUnknown("demo.client"))).toBeGreaterThan(0);
    expect(await b.signInAttempt(fromDevice("demo.client", "owners-browser"))).toBe(0);
    expect(await a.signInAttempt(fromDevice("demo.client", "owners-browser"))).toBe(0);
    expect(await b.signInAttempt(fromDevice("demo.client", "owners-browser"))).toBeGreaterThan(0);
  });

  it("keeps no username in clear in Redis", async () => {
    const keyPrefix = `clear-${Math.random().toString(36).slice(2)}`;
    const a = limitsOf({ redisUrl, keyPrefix });
    await a.signInAttempt(fromUnknown("someone.private"));
    await a.signInAttempt(fromDevice("someone.private", "a-private-nonce"));
    const { Redis } = await import("ioredis");
    const client = new Redis(redisUrl);
    try {
      const keys = await client.keys(`${keyPrefix}*`);
      expect(keys.length).toBe(2);
      expect(keys.join()).not.toContain("someone.private");
      expect(keys.join()).not.toContain("a-private-nonce");
    } finally {
      client.disconnect();
    }
  });
});

describe("while Redis is unreachable (decision 115: this instance's memory, with a warning)", () => {
  it("falls back to memory at once when nothing listens at REDIS_URL, and says so", async () => {
    const warnings: Warning[] = [];
    const limits = limitsOf({ redisUrl: "redis://127.0.0.1:1", warnings });
    const started = performance.now();
    const answers: number[] = [];
    for (let i = 0; i < 4; i++) answers.push(await limits.hit("signIn", "198.51.100.7"));
    expect(performance.now() - started).toBeLessThan(2_000);
    // The limit still holds, in this instance.
    expect(answers.slice(0, 3)).toEqual([0, 0, 0]);
    expect(answers[3]).toBeGreaterThan(0);
    await limits.signInAttempt(fromUnknown("demo.client"));
    await limits.signInAttempt(fromUnknown("demo.client"));
    expect(await limits.signInAttempt(fromUnknown("demo.client"))).toBeGreaterThan(0);
    expect(warnings.some((w) => /memory/.test(w.message))).toBe(true);
    // The address of the store (which may carry a password) is never logged.
    expect(JSON.stringify(warnings)).not.toContain("127.0.0.1:1");
  });

  it("counts in memory, and says so, when Redis refuses a connection without its password (AUTH)", async () => {
    const warnings: Warning[] = [];
    const wrong = limitsOf({ redisUrl: `redis://:not-the-password@127.0.0.1:${redisPort}`, warnings });
    const without = limitsOf({ redisUrl: `redis://127.0.0.1:${redisPort}`, warnings });
    for (const limits of [wrong, without]) {
      const answers: number[] = [];
      for (let i = 0; i < 4; i++) answers.push(await limits.hit("signIn", "198.51.100.9"));
      expect(answers.slice(0, 3)).toEqual([0, 0, 0]);
      expect(answers[3]).toBeGreaterThan(0);
    }
    expect(warnings.some((w) => /memory/.test(w.message))).toBe(true);
    expect(JSON.stringify(warnings)).not.toContain("not-the-password");
  });

  it("falls back to memory within the command timeout when Redis stops answering", async () => {
    const warnings: Warning[] = [];
    const limits = limitsOf({ redisUrl, warnings });
    expect(await limits.hit("signIn", "198.51.100.8")).toBe(0);
    redis!.kill("SIGSTOP");
    try {
      const started = performance.now();
      expect(await limits.hit("signIn", "198.51.100.8")).toBe(0);
      expect(performance.now() - started).toBeLessThan(1_500);
      expect(warnings.some((w) => /memory/.test(w.message))).toBe(true);
    } finally {
      redis!.kill("SIGCONT");
    }
    // Once Redis answers again, the shared count is used again.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await limits.hit("signIn", "198.51.100.8")).toBe(0);
  });
});

describe("configuration (REDIS_URL, RATE_LIMIT_SIGN_IN_FAILURES)", () => {
  it("counts in memory unless REDIS_URL names a Redis", () => {
    expect(parseEnv({}).redisUrl).toBeNull();
    expect(parseEnv({ REDIS_URL: "redis://10.0.0.5:6379" }).redisUrl).toBe("redis://10.0.0.5:6379");
    expect(parseEnv({ REDIS_URL: "rediss://:secret@cache.example:6380/2" }).redisUrl).toBe(
      "rediss://:secret@cache.example:6380/2",
    );
    expect(() => parseEnv({ REDIS_URL: "http://10.0.0.5:6379" })).toThrow(/REDIS_URL/);
    expect(() => parseEnv({ REDIS_URL: "10.0.0.5:6379" })).toThrow(/REDIS_URL/);
  });

  it("allows 4 failed sign-ins per username unless set, and never none", () => {
    expect(parseEnv({}).rateLimitSignInFailures).toBe(4);
    expect(parseEnv({ RATE_LIMIT_SIGN_IN_FAILURES: "3" }).rateLimitSignInFailures).toBe(3);
    expect(() => parseEnv({ RATE_LIMIT_SIGN_IN_FAILURES: "0" })).toThrow(/RATE_LIMIT_SIGN_IN_FAILURES/);
  });
});
