import { describe, expect, it } from "vitest";
import { RateLimiter } from "./rate-limit.server";

describe("RateLimiter", () => {
  const limits = { signIn: { max: 3, windowMs: 60_000 } };

  it("lets the first attempts of a window through and refuses the rest until it ends", () => {
    const limiter = new RateLimiter(limits);
    expect([1, 2, 3].map(() => limiter.hit("signIn", "1.2.3.4", 0))).toEqual([0, 0, 0]);
    expect(limiter.hit("signIn", "1.2.3.4", 10_000)).toBe(50_000);
    expect(limiter.hit("signIn", "1.2.3.4", 59_999)).toBe(1);
    expect(limiter.hit("signIn", "1.2.3.4", 60_000)).toBe(0);
  });

  it("counts each address apart", () => {
    const limiter = new RateLimiter(limits);
    for (let i = 0; i < 4; i++) limiter.hit("signIn", "1.1.1.1", 0);
    expect(limiter.hit("signIn", "1.1.1.1", 1)).toBeGreaterThan(0);
    expect(limiter.hit("signIn", "2.2.2.2", 1)).toBe(0);
  });

  it("refuses an unknown bucket", () => {
    expect(() => new RateLimiter(limits).hit("other", "1.1.1.1")).toThrow();
  });
});
