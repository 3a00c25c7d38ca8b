// Statements whose text depends on which filters a call uses (a list's optional conditions, the
// number of words searched): one prepared statement per shape and database, kept while used
// (docs/decisions/130-documents-batch-and-caller-statements.md). The values travel as placeholders,
// lists of values as one JSON array read with json_each, so the shapes are few.
import type { Db } from "./connection";

const families = new WeakMap<Db, Map<ShapedStatements<unknown>, Map<string, unknown>>>();

/** A family of statements told apart by a shape key; at most `limit` per database, least recently used dropped. */
export class ShapedStatements<T> {
  constructor(readonly limit: number) {}

  /** The statement of `shape` on `db`; `build` (which prepares it) runs once per shape while kept. */
  get(db: Db, shape: string, build: () => T): T {
    let perDb = families.get(db);
    if (!perDb) {
      perDb = new Map();
      families.set(db, perDb);
    }
    let statements = perDb.get(this) as Map<string, T> | undefined;
    if (!statements) {
      statements = new Map();
      perDb.set(this, statements);
    }
    const kept = statements.get(shape);
    if (kept !== undefined) {
      // most recently used last
      statements.delete(shape);
      statements.set(shape, kept);
      return kept;
    }
    const statement = build();
    statements.set(shape, statement);
    if (statements.size > this.limit) statements.delete(statements.keys().next().value as string);
    return statement;
  }

  /** How many shapes it keeps for a database (for tests). */
  size(db: Db): number {
    return families.get(db)?.get(this)?.size ?? 0;
  }
}
