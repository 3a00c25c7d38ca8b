import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import type Database from "better-sqlite3";
import { type BetterSQLite3Database, drizzle } from "drizzle-orm/better-sqlite3";
import { migrate } from "drizzle-orm/better-sqlite3/migrator";
import { parametersAsPlainValues } from "./bound-values";
import * as schema from "./schema";
import { openEncrypted, type Opened, openPlain } from "./encryption";
import { resealSecrets } from "./sealed-secrets";
import { registerSearchFunctions } from "./message-search";

export type Db = BetterSQLite3Database<typeof schema> & { $client: Database.Database };

const MIGRATIONS = fileURLToPath(new URL("./migrations", import.meta.url));

/**
 * Prepares every statement of `sqlite` with its bound parameters written `+?`
 * (server/db/bound-values.ts): SQLite then plans each statement once, not again whenever a value
 * is bound to it.
 */
function planOnce(sqlite: Database.Database): void {
  const prepare = sqlite.prepare.bind(sqlite);
  sqlite.prepare = ((source: string) => prepare(parametersAsPlainValues(source))) as Database.Database["prepare"];
}

/**
 * Opens (creating its folder) and migrates the platform's database, then seals with the current
 * key every secret that is not yet (docs/decisions/172): the keys must be set before
 * (`useSecretKeys`, server/main.ts). With `dbKeys` (PLATFORM_DB_KEYS) the whole file is encrypted
 * (docs/decisions/188), a plain one at its first start with them; `opened` hears what was done.
 */
export function openDatabase(
  file: string,
  dbKeys?: readonly string[],
  opened: (change: Opened["change"]) => void = () => {},
): Db {
  if (file !== ":memory:") mkdirSync(dirname(file), { recursive: true });
  let sqlite: Database.Database;
  if (dbKeys?.length && file !== ":memory:") {
    const result = openEncrypted(file, dbKeys);
    sqlite = result.sqlite;
    opened(result.change);
  } else {
    sqlite = openPlain(file);
  }
  planOnce(sqlite);
  // the messages' search index is written by triggers that call these (docs/decisions/209)
  registerSearchFunctions(sqlite);
  sqlite.pragma("journal_mode = WAL");
  sqlite.pragma("foreign_keys = ON");
  sqlite.pragma("busy_timeout = 5000");
  const db = drizzle(sqlite, { schema });
  migrate(db, { migrationsFolder: MIGRATIONS });
  resealSecrets(db);
  return db;
}

export function closeDatabase(db: Db): void {
  db.$client.close();
}
