import { describe, expect, it } from "vitest";
import { seal, sealBytes, unseal } from "./crypto.server";

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

// docs/decisions/185: the bytes sealing and opening zero are their own copies
describe("sealing with its bytes zeroed", () => {
  it("still opens what it sealed, again and again, and leaves the caller's bytes alone", () => {
    const sealed = seal("platform token", ["secret-a"]);
    expect(unseal(sealed, ["secret-a"])).toBe("platform token");
    expect(unseal(sealed, ["secret-a"])).toBe("platform token");
    expect(unseal(seal("again", ["secret-a"]), ["secret-a"])).toBe("again");
    const mine = Buffer.from("caller's bytes", "utf8");
    sealBytes(mine, ["secret-a"]);
    expect(mine.toString("utf8")).toBe("caller's bytes");
  });
});
