import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { parseEnv } from "./env.server";

describe("ANALYTICS_PAGE_VIEWS (spec 000 §1 analytics monitor, decision 029)", () => {
  it("is on unless switched off", () => {
    expect(parseEnv({}).analyticsPageViews).toBe(true);
    expect(parseEnv({ ANALYTICS_PAGE_VIEWS: "true" }).analyticsPageViews).toBe(true);
    expect(parseEnv({ ANALYTICS_PAGE_VIEWS: "false" }).analyticsPageViews).toBe(false);
  });

  it("refuses anything but true or false", () => {
    expect(() => parseEnv({ ANALYTICS_PAGE_VIEWS: "off" })).toThrow(/ANALYTICS_PAGE_VIEWS/);
  });
});

describe("LOG_LEVEL (docs/decisions/125)", () => {
  it("is debug in development and info otherwise unless set, and takes pino's levels", () => {
    expect(parseEnv({ NODE_ENV: "development" }).logLevel).toBe("debug");
    expect(parseEnv({ NODE_ENV: "test" }).logLevel).toBe("info");
    for (const level of ["silent", "error", "warn", "info", "debug"])
      expect(parseEnv({ NODE_ENV: "development", LOG_LEVEL: level }).logLevel).toBe(level);
    expect(() => parseEnv({ LOG_LEVEL: "verbose" })).toThrow(/LOG_LEVEL/);
  });
});

describe("SESSION_SECRET (issue 24 finding 9, docs/decisions/113)", () => {
  // random, never a fixed secret written in the repository
  const strong = randomBytes(24).toString("base64"); // 32 bytes
  const production = (secret: string | undefined) =>
    parseEnv({
      NODE_ENV: "production",
      SESSION_SECRET: secret,
      CLAMD_ADDRESS: "off",
      PLANNING_API_KEY: randomBytes(32).toString("hex"),
    });

  it("is required in production", () => {
    expect(() => production(undefined)).toThrow(/SESSION_SECRET is required in production/);
  });

  it("refuses in production a secret shorter than 32 bytes", () => {
    expect(() => production(strong.slice(1))).toThrow(/shorter than 32 bytes/);
    expect(() => production("short-secret")).toThrow(/SESSION_SECRET: the secret is shorter than 32 bytes/);
    expect(production(strong).sessionSecrets).toEqual([strong]);
  });

  it("refuses in production a secret that was ever a default in the repository", () => {
    expect(() => production("development-only-secret-change-me")).toThrow(/known default/);
    expect(() => production("please-change-me-before-going-live-2026")).toThrow(/known default/);
  });

  it("checks each secret of a rotation list, naming which one is refused and never showing it", () => {
    const other = randomBytes(32).toString("hex");
    expect(production(`${strong}, ${other}`).sessionSecrets).toEqual([strong, other]);
    let message = "";
    try {
      production(`${strong},too-short`);
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/secret 2 of 2/);
    expect(message).not.toContain("too-short");
    expect(message).not.toContain(strong);
  });

  it("accepts any secret, or generates one, outside production", () => {
    expect(parseEnv({ SESSION_SECRET: "dev" }).sessionSecrets).toEqual(["dev"]);
    const generated = parseEnv({}).sessionSecrets;
    expect(generated).toHaveLength(1);
    expect(Buffer.byteLength(generated[0]!)).toBeGreaterThanOrEqual(32);
    expect(parseEnv({}).sessionSecrets[0]).not.toBe(generated[0]);
  });
});

describe("CLAMD_ADDRESS (ASVS V12.4.2, docs/decisions/192)", () => {
  const secret = randomBytes(32).toString("hex");
  const production = (address: string | undefined) =>
    parseEnv({
      NODE_ENV: "production",
      SESSION_SECRET: secret,
      PLANNING_API_KEY: randomBytes(32).toString("hex"),
      CLAMD_ADDRESS: address,
    });

  it("is required in production: an address, or off said on purpose", () => {
    expect(() => production(undefined)).toThrow(/CLAMD_ADDRESS is required in production/);
    expect(production("off").clamd).toBeNull();
    expect(production("/run/clamav/clamd.ctl").clamd).toEqual({ socket: "/run/clamav/clamd.ctl" });
  });

  it("is off unless set outside production", () => {
    expect(parseEnv({}).clamd).toBeNull();
    expect(parseEnv({ NODE_ENV: "development" }).clamd).toBeNull();
  });

  it("takes a socket path, host:port or [v6]:port, and refuses anything else", () => {
    expect(parseEnv({ CLAMD_ADDRESS: "clamav.internal:3310" }).clamd).toEqual({ host: "clamav.internal", port: 3310 });
    expect(parseEnv({ CLAMD_ADDRESS: "127.0.0.1:3310" }).clamd).toEqual({ host: "127.0.0.1", port: 3310 });
    expect(parseEnv({ CLAMD_ADDRESS: "[::1]:3310" }).clamd).toEqual({ host: "::1", port: 3310 });
    for (const wrong of [
      "clamd",
      "clamav.internal",
      "clamav.internal:0",
      "clamav.internal:70000",
      "tcp://x:1",
      "on",
      "",
    ])
      expect(() => parseEnv({ CLAMD_ADDRESS: wrong }), wrong).toThrow(/CLAMD_ADDRESS/);
  });
});

describe("the platform's caller key, PLANNING_API_KEY (ASVS V1.2.2, docs/decisions/186)", () => {
  const base = {
    NODE_ENV: "production",
    SESSION_SECRET: randomBytes(32).toString("hex"),
    CLAMD_ADDRESS: "off",
  } as const;

  it("is required in production, random and long, and never shown in a refusal", () => {
    expect(() => parseEnv({ ...base })).toThrow(/PLANNING_API_KEY is required in production/);
    expect(() => parseEnv({ ...base, PLANNING_API_KEY: "short-caller-key" })).toThrow(
      /PLANNING_API_KEY: the key is shorter than 32 bytes/,
    );
    expect(() => parseEnv({ ...base, PLANNING_API_KEY: "change-me-change-me-change-me-change-me" })).toThrow(
      /known default or a placeholder/,
    );
    let message = "";
    try {
      parseEnv({ ...base, PLANNING_API_KEY: "short-caller-key" });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).not.toContain("short-caller-key");
    const key = randomBytes(32).toString("hex");
    expect(parseEnv({ ...base, PLANNING_API_KEY: key }).planningApiKey).toBe(key);
  });

  it("is optional outside production", () => {
    expect(parseEnv({ NODE_ENV: "development" }).planningApiKey).toBeNull();
    expect(parseEnv({ NODE_ENV: "test", PLANNING_API_KEY: "dev" }).planningApiKey).toBe("dev");
  });
});

describe("TLS between the components in production (ASVS V1.9.1, V9.2.2, docs/decisions/186)", () => {
  const production = {
    NODE_ENV: "production",
    SESSION_SECRET: randomBytes(32).toString("hex"),
    PLANNING_API_KEY: randomBytes(32).toString("hex"),
    CLAMD_ADDRESS: "off",
  } as const;

  it("refuses an http:// platform on another machine, and takes https:// or this machine's", () => {
    expect(() => parseEnv({ ...production, PLANNING_API_URL: "http://10.0.0.7:3100" })).toThrow(
      /PLANNING_API_URL: production needs an https:\/\/ platform/,
    );
    expect(() => parseEnv({ ...production, PLANNING_API_URL: "http://platform.internal" })).toThrow(/PLANNING_API_URL/);
    for (const url of [
      "https://platform.example.com",
      "http://127.0.0.1:3100",
      "http://127.9.0.1:3100",
      "http://localhost:3100",
      "http://[::1]:3100",
    ])
      expect(parseEnv({ ...production, PLANNING_API_URL: url }).planningApiUrl).toBe(url);
  });

  it("refuses redis:// on another machine, never writing the URL (it holds the password), and takes rediss://", () => {
    const clear = "redis://:s3cret-password@10.0.0.5:6379";
    let message = "";
    try {
      parseEnv({ ...production, REDIS_URL: clear });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/REDIS_URL: production needs rediss:\/\/ \(TLS\)/);
    expect(message).not.toContain("s3cret-password");
    const tls = "rediss://:s3cret-password@redis.internal:6380";
    expect(parseEnv({ ...production, REDIS_URL: tls }).redisUrl).toBe(tls);
    expect(parseEnv({ ...production, REDIS_URL: "redis://127.0.0.1:6379" }).redisUrl).toBe("redis://127.0.0.1:6379");
  });

  it("allows both in clear when the operator says the private network is encrypted, and outside production", () => {
    const cleared = parseEnv({
      ...production,
      PRIVATE_NETWORK_ENCRYPTED: "true",
      PLANNING_API_URL: "http://10.0.0.7:3100",
      REDIS_URL: "redis://10.0.0.5:6379",
    });
    expect(cleared.planningApiUrl).toBe("http://10.0.0.7:3100");
    expect(cleared.redisUrl).toBe("redis://10.0.0.5:6379");
    expect(() => parseEnv({ ...production, PRIVATE_NETWORK_ENCRYPTED: "yes" })).toThrow(/PRIVATE_NETWORK_ENCRYPTED/);
    expect(parseEnv({ NODE_ENV: "development", PLANNING_API_URL: "http://10.0.0.7:3100" }).planningApiUrl).toBe(
      "http://10.0.0.7:3100",
    );
  });
});

describe("secrets from files, NAME_FILE (ASVS V1.6.2, docs/decisions/187)", () => {
  const secret = randomBytes(32).toString("hex");
  const key = randomBytes(32).toString("hex");
  const files: Record<string, string> = {
    "/run/secrets/session": `${secret}\n`,
    "/run/secrets/caller": key,
    "/run/secrets/redis": "rediss://:pw@redis.internal:6380\n",
  };
  const read = (path: string) => {
    if (path in files) return files[path]!;
    throw Object.assign(new Error(`EACCES: ${path}`), { code: "EACCES" });
  };

  it("reads SESSION_SECRET, PLANNING_API_KEY and REDIS_URL from the files their _FILE variables name", () => {
    const env = parseEnv(
      {
        NODE_ENV: "production",
        CLAMD_ADDRESS: "off",
        SESSION_SECRET_FILE: "/run/secrets/session",
        PLANNING_API_KEY_FILE: "/run/secrets/caller",
        REDIS_URL_FILE: "/run/secrets/redis",
      },
      read,
    );
    expect(env.sessionSecrets).toEqual([secret]);
    expect(env.planningApiKey).toBe(key);
    expect(env.redisUrl).toBe("rediss://:pw@redis.internal:6380");
  });

  it("refuses a secret set both ways, and a file it cannot read", () => {
    expect(() => parseEnv({ SESSION_SECRET: secret, SESSION_SECRET_FILE: "/run/secrets/session" }, read)).toThrow(
      "Invalid configuration: SESSION_SECRET and SESSION_SECRET_FILE are both set: set one of them",
    );
    expect(() => parseEnv({ PLANNING_API_KEY_FILE: "/run/secrets/other" }, read)).toThrow(
      "Invalid configuration: PLANNING_API_KEY_FILE: cannot read /run/secrets/other (EACCES)",
    );
  });
});
