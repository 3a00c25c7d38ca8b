import { describe, expect, it } from "vitest";
import { BoundedCache } from "./bounded-cache";

describe("BoundedCache (decision 124)", () => {
  it("keeps at most its number of entries, the least recently used going first", () => {
    const cache = new BoundedCache<string, number>(2);
    cache.set("a", 1);
    cache.set("b", 2);
    expect(cache.get("a")).toBe(1); // 'a' is now the newest
    cache.set("c", 3);
    expect(cache.size).toBe(2);
    expect(cache.get("b")).toBeUndefined();
    expect(cache.get("a")).toBe(1);
    expect(cache.get("c")).toBe(3);
  });

  it("makes a value once per key, and keeps nothing when making it throws", () => {
    const cache = new BoundedCache<string, string>(10);
    let made = 0;
    const make = () => `made ${++made}`;
    expect(cache.getOrSet("k", make)).toBe("made 1");
    expect(cache.getOrSet("k", make)).toBe("made 1");
    expect(cache.getOrSet("other", make)).toBe("made 2");
    expect(() =>
      cache.getOrSet("bad", () => {
        throw new RangeError("no");
      }),
    ).toThrow(RangeError);
    expect(cache.get("bad")).toBeUndefined();
    expect(cache.size).toBe(2);
  });

  it("refuses a size that is not a positive whole number", () => {
    expect(() => new BoundedCache(0)).toThrow(RangeError);
    expect(() => new BoundedCache(1.5)).toThrow(RangeError);
  });
});
