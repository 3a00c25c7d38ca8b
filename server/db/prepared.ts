// Statements built and prepared once per open database, for the queries every request makes
// (docs/decisions/123-platform-derived-figures.md): building a query with drizzle and preparing it
// in SQLite cost more than running it.
import type { Db } from "./connection";

const statements = new WeakMap<Db, Map<(db: Db) => unknown, unknown>>();

/** The statement `build` prepares on `db` (with `sql.placeholder` for its values), built once. */
export function prepared<T>(db: Db, build: (db: Db) => T): T {
  let built = statements.get(db);
  if (!built) {
    built = new Map();
    statements.set(db, built);
  }
  let statement = built.get(build) as T | undefined;
  if (statement === undefined) {
    statement = build(db);
    built.set(build, statement);
  }
  return statement;
}
