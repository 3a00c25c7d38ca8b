// Figures derived from the database and kept between requests: bounded, per database, and dropped
// as soon as what they derive from is written (docs/decisions/123-platform-derived-figures.md).
import type Database from "better-sqlite3";
import { LRUCache } from "lru-cache";
import type { Db } from "./connection";

type Entry<V> = { value: V };

/** Per open database: its generation statement and the caches' entries of the current generation. */
type State = {
  generation: Database.Statement<[], number>;
  seen: number;
  caches: Map<DerivedCache<unknown>, LRUCache<string, Entry<unknown>>>;
};

const states = new WeakMap<Database.Database, State>();

function stateOf(db: Db): State {
  const sqlite = db.$client;
  let state = states.get(sqlite);
  if (!state) {
    state = {
      generation: sqlite.prepare<[], number>("SELECT generation FROM derived_generation WHERE id = 1").pluck(),
      seen: -1,
      caches: new Map(),
    };
    states.set(sqlite, state);
  }
  return state;
}

/**
 * How many writes the transactions, prices, FX rates, securities, accounts and benchmarks have had
 * (triggers count them in `derived_generation`, whichever process or statement wrote them).
 */
export function derivedGeneration(db: Db): number {
  return stateOf(db).generation.get() ?? 0;
}

/**
 * A cache of figures derived from the tables the generation counts: at most `limit` entries per
 * database, least recently used dropped first, every entry dropped when the generation moves. The
 * key must name everything else the figure depends on (accounts, dates, measure...).
 */
export class DerivedCache<V> {
  constructor(readonly limit: number) {}

  get(db: Db, key: string, compute: () => V): V {
    const state = stateOf(db);
    const generation = state.generation.get() ?? 0;
    if (generation !== state.seen) {
      state.caches.clear();
      state.seen = generation;
    }
    let entries = state.caches.get(this) as LRUCache<string, Entry<V>> | undefined;
    if (!entries) {
      entries = new LRUCache({ max: this.limit });
      state.caches.set(this, entries as LRUCache<string, Entry<unknown>>);
    }
    const hit = entries.get(key);
    if (hit) return hit.value;
    const value = compute();
    entries.set(key, { value });
    return value;
  }

  /** How many entries it holds for a database (for tests). */
  size(db: Db): number {
    return stateOf(db).caches.get(this)?.size ?? 0;
  }
}
