import { describe, expect, it } from "vitest";
import { forgetKeptAnswers, keptAnswers } from "./kept-answers.server";

function clock() {
  let now = 1_000;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

function counter<V>(answer: () => V) {
  let calls = 0;
  return {
    load: async () => {
      calls += 1;
      return answer();
    },
    calls: () => calls,
  };
}

describe("answers kept between pages (decision 158)", () => {
  it("answers from memory until the time is up, then asks again", async () => {
    const time = clock();
    const kept = keptAnswers<{ n: number }>({ ttlMs: 60_000, max: 10, now: time.now });
    let n = 0;
    const platform = counter(() => ({ n: ++n }));
    expect(await kept.get("a", platform.load)).toEqual({ n: 1 });
    time.advance(59_000);
    expect(await kept.get("a", platform.load)).toEqual({ n: 1 });
    expect(platform.calls()).toBe(1);
    time.advance(2_000);
    expect(await kept.get("a", platform.load)).toEqual({ n: 2 });
    expect(platform.calls()).toBe(2);
  });

  it("keeps each key's answer apart", async () => {
    const kept = keptAnswers<{ key: string }>({ ttlMs: 60_000, max: 10, now: clock().now });
    expect(await kept.get("a", async () => ({ key: "a" }))).toEqual({ key: "a" });
    expect(await kept.get("b", async () => ({ key: "b" }))).toEqual({ key: "b" });
    expect(await kept.get("a", async () => ({ key: "not asked" }))).toEqual({ key: "a" });
  });

  it("never keeps a failure: the next caller asks again", async () => {
    const kept = keptAnswers<{ ok: boolean }>({ ttlMs: 60_000, max: 10, now: clock().now });
    await expect(
      kept.get("a", async () => {
        throw new Error("platform down");
      }),
    ).rejects.toThrow("platform down");
    expect(await kept.get("a", async () => ({ ok: true }))).toEqual({ ok: true });
  });

  it("makes one call for callers who ask at once", async () => {
    const kept = keptAnswers<{ n: number }>({ ttlMs: 60_000, max: 10, now: clock().now });
    const platform = counter(() => ({ n: 1 }));
    const answers = await Promise.all([1, 2, 3].map(() => kept.get("a", platform.load)));
    expect(answers).toEqual([{ n: 1 }, { n: 1 }, { n: 1 }]);
    expect(platform.calls()).toBe(1);
  });

  it("holds at most `max` answers, the least recently used dropped", async () => {
    const kept = keptAnswers<{ key: string }>({ ttlMs: 60_000, max: 2, now: clock().now });
    const platform = counter(() => ({ key: "x" }));
    await kept.get("a", platform.load);
    await kept.get("b", platform.load);
    await kept.get("c", platform.load);
    await kept.get("a", platform.load);
    expect(platform.calls()).toBe(4);
  });

  it("forgets everything when the tests ask", async () => {
    const kept = keptAnswers<{ n: number }>({ ttlMs: 60_000, max: 10, now: clock().now });
    const platform = counter(() => ({ n: 1 }));
    await kept.get("a", platform.load);
    forgetKeptAnswers();
    await kept.get("a", platform.load);
    expect(platform.calls()).toBe(2);
  });
});
