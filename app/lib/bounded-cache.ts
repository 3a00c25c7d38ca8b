// A small least-recently-used cache (decision 124): what the portal keeps between requests (a
// chart's markup for the same data) is bounded by a number of entries, the least recently used
// going first. Pure: no timers.

export class BoundedCache<K, V> {
  private readonly entries = new Map<K, V>();

  constructor(readonly maxEntries: number) {
    if (!Number.isInteger(maxEntries) || maxEntries < 1) throw new RangeError("maxEntries must be a positive integer");
  }

  get size(): number {
    return this.entries.size;
  }

  /** The value kept for `key` (now the most recently used), or undefined. */
  get(key: K): V | undefined {
    if (!this.entries.has(key)) return undefined;
    const value = this.entries.get(key) as V;
    // a Map iterates in insertion order: re-inserting makes this the newest
    this.entries.delete(key);
    this.entries.set(key, value);
    return value;
  }

  set(key: K, value: V): void {
    this.entries.delete(key);
    this.entries.set(key, value);
    while (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next().value as K;
      this.entries.delete(oldest);
    }
  }

  /** The value kept for `key`, else `make()`'s, kept. A `make` that throws keeps nothing. */
  getOrSet(key: K, make: () => V): V {
    const kept = this.get(key);
    if (kept !== undefined) return kept;
    const value = make();
    this.set(key, value);
    return value;
  }

  clear(): void {
    this.entries.clear();
  }
}
