import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { fixedClock } from "../../server/clock";
import { closeDatabase, type Db, openDatabase } from "../../server/db/connection";
import { fileState } from "../../server/db/encryption";
import { readEnv } from "../../server/env";
import { seedIfEmpty } from "../../server/seed";
import { START } from "./harness";

// what production asks for besides what this file is about (each refused apart when missing)
const PRODUCTION_REST = {
  PLATFORM_SECRET_KEYS: "5e".repeat(32),
  PLATFORM_PEPPER_KEYS: "9e".repeat(32),
  PLATFORM_CLAMD_ADDRESS: "off",
  PLATFORM_CALLER_KEYS: "ca".repeat(32),
} as const;

// ASVS V6.1.1, V6.1.3 (docs/decisions/188): with PLATFORM_DB_KEYS the platform's database file
// holds no personal or financial data in the clear; a plain file is encrypted at its first start
// with the keys, and the keys rotate by list.

const dir = mkdtempSync(join(tmpdir(), "platform-encryption-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const KEY = "db-key-one-0123456789abcdef0123456789abcdef";
const NEXT = "db-key-two-fedcba9876543210fedcba9876543210";
// what the demo data set writes: a client's name, a bank account's, a message's words
const CLEAR = ["Hartley", "Mrs E Hartley"];

let files = 0;
const newFile = () => join(dir, `platform-${++files}.sqlite`);

/** The demo data set in a database, closed (its write-ahead log folded into the file). */
function seeded(file: string, keys?: string[]): void {
  const db = openDatabase(file, keys);
  seedIfEmpty(db, fixedClock(START));
  closeDatabase(db);
}

function clientNames(db: Db): string[] {
  return db.$client.prepare("select last_name from entities where last_name = 'Hartley'").pluck().all() as string[];
}

const bytesOf = (file: string) => readFileSync(file).toString("latin1");

// each test seeds a file and opens it with a key several times: a key derivation of a third of a
// second each (docs/decisions/188), so more than the default time on a busy machine
describe("the database file with PLATFORM_DB_KEYS", { timeout: 90_000 }, () => {
  it("is created encrypted: no name, account or header in the clear, and opens again with the key", () => {
    const file = newFile();
    seeded(file, [KEY]);
    expect(fileState(file)).toBe("encrypted");
    expect(existsSync(`${file}-wal`)).toBe(false);
    const bytes = bytesOf(file);
    expect(bytes.startsWith("SQLite format 3")).toBe(false);
    for (const text of CLEAR) expect(bytes).not.toContain(text);
    const db = openDatabase(file, [KEY]);
    try {
      expect(clientNames(db).length).toBeGreaterThan(0);
    } finally {
      closeDatabase(db);
    }
  });

  it("encrypts its write-ahead log too, while the platform runs (a plain file's log holds the names)", () => {
    const walOf = (keys?: string[]) => {
      const file = newFile();
      const db = openDatabase(file, keys);
      try {
        seedIfEmpty(db, fixedClock(START));
        expect(existsSync(`${file}-wal`)).toBe(true);
        return bytesOf(`${file}-wal`);
      } finally {
        closeDatabase(db);
      }
    };
    expect(walOf()).toContain("Hartley");
    const encrypted = walOf([KEY]);
    for (const text of CLEAR) expect(encrypted).not.toContain(text);
  });

  it("encrypts a plain file (from before the keys) at its first start with them, keeping every row", () => {
    const file = newFile();
    seeded(file);
    expect(fileState(file)).toBe("plain");
    expect(bytesOf(file)).toContain("Hartley");
    const changes: unknown[] = [];
    const db = openDatabase(file, [KEY], (change) => changes.push(change));
    const names = clientNames(db);
    closeDatabase(db);
    expect(changes).toEqual(["encrypted"]);
    expect(names.length).toBeGreaterThan(0);
    expect(fileState(file)).toBe("encrypted");
    for (const text of CLEAR) expect(bytesOf(file)).not.toContain(text);
    const again = openDatabase(file, [KEY], (change) => changes.push(change));
    expect(clientNames(again)).toEqual(names);
    closeDatabase(again);
    expect(changes).toEqual(["encrypted", null]);
  });

  it("rotates: a file of a key later in the list is encrypted again with the first, then the old key no longer opens it", () => {
    const file = newFile();
    seeded(file, [KEY]);
    const changes: unknown[] = [];
    const rotated = openDatabase(file, [NEXT, KEY], (change) => changes.push(change));
    const names = clientNames(rotated);
    closeDatabase(rotated);
    expect(changes).toEqual(["rekeyed"]);
    expect(names.length).toBeGreaterThan(0);
    const db = openDatabase(file, [NEXT]);
    expect(clientNames(db)).toEqual(names);
    closeDatabase(db);
    expect(() => openDatabase(file, [KEY])).toThrow(/PLATFORM_DB_KEYS: no key of the list opens/);
  });

  it("refuses a file no key of the list opens, or an encrypted one without keys, naming no key", () => {
    const file = newFile();
    seeded(file, [KEY]);
    let message = "";
    try {
      openDatabase(file, ["wrong-key-0123456789abcdef0123456789abcdef"]);
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/PLATFORM_DB_KEYS: no key of the list opens/);
    expect(message).not.toContain("wrong-key");
    expect(() => openDatabase(file)).toThrow(/is encrypted \(or not a database\): set PLATFORM_DB_KEYS/);
  });

  it("leaves a plain file plain without keys (development), and an in-memory database as it is", () => {
    const file = newFile();
    seeded(file);
    expect(fileState(file)).toBe("plain");
    const memory = openDatabase(":memory:", [KEY]);
    closeDatabase(memory);
  });
});

describe("PLATFORM_DB_KEYS", () => {
  const production = {
    NODE_ENV: "production",
    ...PRODUCTION_REST,
    PLATFORM_SECRET_KEYS: "k".repeat(64),
    PLATFORM_CALLER_KEYS: "c".repeat(64),
  } as const;

  it("is required in production, each key at least 32 bytes, a list; unset elsewhere", () => {
    expect(() => readEnv({ ...production })).toThrow(/PLATFORM_DB_KEYS: required in production/);
    expect(() => readEnv({ ...production, PLATFORM_DB_KEYS: "short" })).toThrow(
      /PLATFORM_DB_KEYS: the key is shorter than 32 bytes/,
    );
    expect(readEnv({ ...production, PLATFORM_DB_KEYS: `${"a".repeat(64)}, ${"b".repeat(64)}` }).dbKeys).toEqual([
      "a".repeat(64),
      "b".repeat(64),
    ]);
    expect(readEnv({ NODE_ENV: "development" }).dbKeys).toBeUndefined();
  });

  it("can be read from a file (PLATFORM_DB_KEYS_FILE)", () => {
    const file = join(dir, "db-keys");
    writeFileSync(file, `${"d".repeat(64)}\n`, { mode: 0o400 });
    expect(readEnv({ ...production, PLATFORM_DB_KEYS_FILE: file }).dbKeys).toEqual(["d".repeat(64)]);
  });
});
