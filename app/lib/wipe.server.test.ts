import { describe, expect, it } from "vitest";
import { seal, sealBytes, unseal } from "~/session/crypto.server";
import { usingBytes } from "./wipe.server";

// ASVS 4.0.3 V8.3.6 (docs/decisions/185): bytes that held a secret are zeroed once used.

const SECRETS = ["wipe-test-secret-wipe-test-secret-0123456789"];

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

describe("sealing in the portal", () => {
  it("still opens what it sealed (the bytes zeroed are its own copies)", () => {
    const sealed = seal("platform token", SECRETS);
    expect(unseal(sealed, SECRETS)).toBe("platform token");
    // bytes the caller gives are the caller's: sealing does not wipe them
    const mine = Buffer.from("caller's bytes", "utf8");
    sealBytes(mine, SECRETS);
    expect(mine.toString("utf8")).toBe("caller's bytes");
  });
});
