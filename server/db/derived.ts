// Figures derived from the database and kept between requests: bounded, per database, and dropped
// as soon as what they derive from is written (docs/decisions/123-platform-derived-figures.md).
import type Database from "better-sqlite3";
import { LRUCache } from "lru-cache";
import type { Db } from "./connection";

type Entry<V> = { value: V };

/**
 * The rows of `derived_generation`, each counting the writes to the tables some caches derive from:
 * the figures (transactions, prices, FX rates, securities, accounts, benchmarks and what an entity
 * sees: migrations 0011, 0012) and the documents (documents, their entities, categories and first
 * reads: migration 0013, decision 160).
 */
export type Generation = "figures" | "documents";

const GENERATION_ROW: Record<Generation, number> = { figures: 1, documents: 2 };

/** Per open database and generation: its statement and the caches' entries of the current count. */
type State = {
  generation: Database.Statement<[], number>;
  seen: number;
  caches: Map<DerivedCache<unknown>, LRUCache<string, Entry<unknown>>>;
};

const states = new WeakMap<Database.Database, Map<Generation, State>>();

function stateOf(db: Db, generation: Generation): State {
  const sqlite = db.$client;
  let byGeneration = states.get(sqlite);
  if (!byGeneration) {
    byGeneration = new Map();
    states.set(sqlite, byGeneration);
  }
  let state = byGeneration.get(generation);
  if (!state) {
    state = {
      generation: sqlite
        .prepare<[], number>(`SELECT generation FROM derived_generation WHERE id = ${GENERATION_ROW[generation]}`)
        .pluck(),
      seen: -1,
      caches: new Map(),
    };
    byGeneration.set(generation, state);
  }
  return state;
}

/**
 * How many writes the tables of a generation have had (triggers count them in `derived_generation`,
 * whichever process or statement wrote them); by default the figures'.
 */
export function derivedGeneration(db: Db, generation: Generation = "figures"): number {
  return stateOf(db, generation).generation.get() ?? 0;
}

/**
 * A cache of values derived from the tables a generation counts (the figures' by default): at most
 * `limit` entries per database, least recently used dropped first, every entry dropped when the
 * generation moves. The key must name everything else the value depends on (accounts, dates,
 * measure...).
 */
export class DerivedCache<V> {
  constructor(
    readonly limit: number,
    readonly generation: Generation = "figures",
  ) {}

  get(db: Db, key: string, compute: () => V): V {
    const state = stateOf(db, this.generation);
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
    return stateOf(db, this.generation).caches.get(this)?.size ?? 0;
  }
}
