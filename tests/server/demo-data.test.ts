import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { fixedClock } from "../../server/clock";
import { closeDatabase, type Db, openDatabase } from "../../server/db/connection";
import { firms, users } from "../../server/db/schema";
import { demoDataOn, type PlatformEnv, readEnv } from "../../server/env";
import { seedOnStart } from "../../server/seed";

// what production asks for besides what this file is about (each refused apart when missing)
const PRODUCTION_REST = {
  PLATFORM_SECRET_KEYS: "5e".repeat(32),
  PLATFORM_PEPPER_KEYS: "9e".repeat(32),
  PLATFORM_CLAMD_ADDRESS: "off",
  PLATFORM_CALLER_KEYS: "ca".repeat(32),
  PLATFORM_DB_KEYS: "db".repeat(32),
} as const;

// ASVS 4.0.3 V2.5.4 and V14.2.2 (docs/decisions/182): the demo data set, whose logins share a
// published password, never reaches a production database unless PLATFORM_DEMO_DATA=true says so.

const PLATFORM_SECRET_KEYS = "7c".repeat(32);
const PLATFORM_PEPPER_KEYS = "6b".repeat(32);

describe("PLATFORM_DEMO_DATA", () => {
  it("is on outside production, off in production, and what it says when set", () => {
    expect(demoDataOn(readEnv({ NODE_ENV: "development" }))).toBe(true);
    expect(demoDataOn(readEnv({ NODE_ENV: "test" }))).toBe(true);
    expect(
      demoDataOn(
        readEnv({
          NODE_ENV: "production",
          ...PRODUCTION_REST,
          PLATFORM_SECRET_KEYS,
          PLATFORM_PEPPER_KEYS,
          PLATFORM_CLAMD_ADDRESS: "off",
        }),
      ),
    ).toBe(false);
    expect(
      demoDataOn(
        readEnv({
          NODE_ENV: "production",
          ...PRODUCTION_REST,
          PLATFORM_SECRET_KEYS,
          PLATFORM_PEPPER_KEYS,
          PLATFORM_CLAMD_ADDRESS: "off",
          PLATFORM_DEMO_DATA: "true",
        }),
      ),
    ).toBe(true);
    expect(demoDataOn(readEnv({ NODE_ENV: "development", PLATFORM_DEMO_DATA: "false" }))).toBe(false);
    expect(() => readEnv({ NODE_ENV: "development", PLATFORM_DEMO_DATA: "yes" })).toThrow(/PLATFORM_DEMO_DATA/);
  });
});

describe("the platform's start on an empty database", () => {
  let dir: string | null = null;
  let db: Db | null = null;
  afterEach(() => {
    if (db) closeDatabase(db);
    if (dir) rmSync(dir, { recursive: true, force: true });
    db = null;
    dir = null;
  });
  const freshDatabase = () => {
    dir = mkdtempSync(join(tmpdir(), "platform-demo-data-"));
    db = openDatabase(join(dir, "platform.sqlite"));
    return db;
  };
  const env = (nodeEnv: PlatformEnv["nodeEnv"], demoData?: boolean): PlatformEnv => ({
    port: 0,
    host: "127.0.0.1",
    dbFile: "unused",
    nodeEnv,
    demoData,
  });
  const clock = fixedClock("2025-03-14T10:00:00.000Z");

  it("in production, leaves it empty: no demo login exists", () => {
    const database = freshDatabase();
    expect(seedOnStart(database, clock, env("production"))).toBe("empty");
    expect(database.select().from(users).all()).toEqual([]);
    expect(database.select().from(firms).all()).toEqual([]);
  });

  it("in production with PLATFORM_DEMO_DATA=true, seeds it once", () => {
    const database = freshDatabase();
    expect(seedOnStart(database, clock, env("production", true))).toBe("seeded");
    expect(database.select().from(users).all().length).toBeGreaterThan(0);
    expect(seedOnStart(database, clock, env("production", true))).toBe("kept");
  });
});
