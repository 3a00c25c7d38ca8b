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
    parseEnv({ NODE_ENV: "production", SESSION_SECRET: secret, CLAMD_ADDRESS: "off" });

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
    parseEnv({ NODE_ENV: "production", SESSION_SECRET: secret, CLAMD_ADDRESS: address });

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
