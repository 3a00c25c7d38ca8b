import { describe, expect, it } from "vitest";
import { openSecret, sealSecret, useSecretKeys, DEVELOPMENT_SECRET_KEY } from "../../server/lib/secrets-at-rest";
import { matchTokenCode, newTotpSecret, otpauthUri, totp, base32Decode } from "../../server/lib/totp";
import { usingBytes } from "../../server/lib/wipe";

// ASVS 4.0.3 V8.3.6 (docs/decisions/185): where the platform holds a secret in a Buffer (a derived
// key, a decrypted value, a TOTP key) it zeroes it once used; what it answers still works.

describe("usingBytes", () => {
  it("answers the use's answer and zeroes the bytes, also when it throws", () => {
    const bytes = Buffer.from("chestnut", "utf8");
    expect(usingBytes(bytes, (b) => b.toString("utf8"))).toBe("chestnut");
    expect([...bytes].every((b) => b === 0)).toBe(true);
    const thrown = new Uint8Array([7, 7]);
    expect(() =>
      usingBytes(thrown, () => {
        throw new Error("no");
      }),
    ).toThrow("no");
    expect([...thrown]).toEqual([0, 0]);
  });
});

describe("the secrets that are zeroed still work", () => {
  it("a sealed secret opens, under keys replaced since (the old keys zeroed, the new derived afresh)", () => {
    const sealed = sealSecret("chestnut", "memorable_word");
    expect(openSecret(sealed, "memorable_word")).toBe("chestnut");
    expect(openSecret(sealed, "memorable_word")).toBe("chestnut");
    useSecretKeys(["f".repeat(64), DEVELOPMENT_SECRET_KEY]);
    try {
      expect(openSecret(sealed, "memorable_word")).toBe("chestnut");
    } finally {
      useSecretKeys([DEVELOPMENT_SECRET_KEY]);
    }
    expect(openSecret(sealed, "memorable_word")).toBe("chestnut");
  });

  it("a TOTP secret matches its codes every time, and its URI names it", () => {
    const secret = newTotpSecret();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    const now = Date.UTC(2025, 2, 14, 10);
    const code = totp(base32Decode(secret), now);
    expect(matchTokenCode(secret, code, now)).not.toBeNull();
    expect(matchTokenCode(secret, code, now)).not.toBeNull();
    expect(otpauthUri(secret, "demo.client", "Client Online")).toContain(`secret=${secret}`);
  });
});
