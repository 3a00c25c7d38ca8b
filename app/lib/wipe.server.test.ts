import { describe, expect, it } from "vitest";
import { usingBytes } from "./wipe.server";

// ASVS 4.0.3 V8.3.6 (docs/decisions/185): bytes that held a secret are zeroed once used.

describe("usingBytes", () => {
  it("answers what the use answers, then zeroes the bytes", () => {
    const bytes = Buffer.from("memorable", "utf8");
    expect(usingBytes(bytes, (b) => b.toString("utf8"))).toBe("memorable");
    expect([...bytes].every((b) => b === 0)).toBe(true);
  });

  it("zeroes them when the use throws, too", () => {
    const bytes = new Uint8Array([1, 2, 3]);
    expect(() =>
      usingBytes(bytes, () => {
        throw new Error("refused");
      }),
    ).toThrow("refused");
    expect([...bytes]).toEqual([0, 0, 0]);
  });
});
