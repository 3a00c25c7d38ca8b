import { LRUCache } from "lru-cache";

// Answers of the platform that cannot change within a session or a minute, kept in this instance's
// memory instead of asked for on every page (issue 38, docs/decisions/158): the firm's feature
// toggles (the same for everyone) and the advisers a session's client has. What is kept names no
// secret the user typed, and no write of the portal changes it, so instances behind a load
// balancer need not agree: each keeps its own copy for at most the time given. A failed answer is
// never kept (the next page asks again); callers that ask at once share one call.

export type KeptAnswers<V extends object> = {
  /** The answer kept under `key`, or `load`'s, kept from then on for the time given. */
  get(key: string, load: () => Promise<V>): Promise<V>;
};

const all: Array<LRUCache<string, object, () => Promise<object>>> = [];

/** `now`: the clock the time is read from (tests), performance.now by default. */
export function keptAnswers<V extends object>(options: {
  ttlMs: number;
  max: number;
  now?: () => number;
}): KeptAnswers<V> {
  const cache = new LRUCache<string, V, () => Promise<V>>({
    max: options.max,
    ttl: options.ttlMs,
    ...(options.now ? { perf: { now: options.now }, ttlResolution: 0 } : {}),
    // a kept answer lasts its time from when it was asked for, however often it is read
    updateAgeOnGet: false,
    fetchMethod: (_key, _stale, { context }) => context(),
  });
  all.push(cache as unknown as LRUCache<string, object, () => Promise<object>>);
  return {
    async get(key, load) {
      const value = await cache.fetch(key, { context: load });
      // fetchMethod never answers undefined: `load` answers a V or throws
      return value as V;
    },
  };
}

/** Tests: forgets every kept answer, so that the next call reaches the platform (or its stand-in). */
export function forgetKeptAnswers(): void {
  for (const cache of all) cache.clear();
}
