// Statements whose text depends on which filters a call uses (a list's optional conditions, the
// number of words searched): one prepared statement per shape and database, kept while used
// (docs/decisions/130-documents-batch-and-caller-statements.md). The values travel as placeholders,
// lists of values as one JSON array read with json_each, so the shapes are few.
import { LRUCache } from "lru-cache";
import type { Db } from "./connection";

const families = new WeakMap<Db, Map<ShapedStatements<object>, LRUCache<string, object>>>();

/** A family of statements told apart by a shape key; at most `limit` per database, least recently used dropped (lru-cache). */
export class ShapedStatements<T extends object> {
  constructor(readonly limit: number) {}

  /** The statement of `shape` on `db`; `build` (which prepares it) runs once per shape while kept. */
  get(db: Db, shape: string, build: () => T): T {
    let perDb = families.get(db);
    if (!perDb) {
      perDb = new Map();
      families.set(db, perDb);
    }
    let statements = perDb.get(this) as LRUCache<string, T> | undefined;
    if (!statements) {
      statements = new LRUCache<string, T>({ max: this.limit });
      perDb.set(this, statements as unknown as LRUCache<string, object>);
    }
    const kept = statements.get(shape);
    if (kept !== undefined) return kept;
    const statement = build();
    statements.set(shape, statement);
    return statement;
  }

  /** How many shapes it keeps for a database (for tests). */
  size(db: Db): number {
    return families.get(db)?.get(this)?.size ?? 0;
  }
}
