import { describe, expect, it } from "vitest";
import { seal, unseal } from "./crypto.server";

describe("sealing the platform token", () => {
  it("round-trips and hides the token", () => {
    const sealed = seal("token-123", ["secret-a"]);
    expect(sealed).not.toContain("token-123");
    expect(unseal(sealed, ["secret-a"])).toBe("token-123");
  });
  it("opens with a rotated-out secret still in the list, and not with a foreign one", () => {
    const sealed = seal("token-123", ["old"]);
    expect(unseal(sealed, ["new", "old"])).toBe("token-123");
    expect(unseal(sealed, ["other"])).toBeNull();
  });
  it("rejects tampering", () => {
    const sealed = seal("token-123", ["s"]);
    const [iv, tag, body] = sealed.split(".");
    const flipped = Buffer.from(body!, "base64url");
    flipped[0] = flipped[0]! ^ 1;
    expect(unseal([iv, tag, flipped.toString("base64url")].join("."), ["s"])).toBeNull();
    expect(unseal("garbage", ["s"])).toBeNull();
  });
});
