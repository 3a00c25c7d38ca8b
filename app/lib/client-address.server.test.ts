import { describe, expect, it } from "vitest";
import { clientAddress } from "./client-address.server";

const requestWith = (xff?: string) =>
  new Request("http://portal.test/", { headers: xff ? { "x-forwarded-for": xff } : {} });

describe("clientAddress", () => {
  it("ignores X-Forwarded-For when no proxy is trusted", () => {
    expect(clientAddress(requestWith("1.2.3.4"), 0)).toBeNull();
  });
  it("takes the entry written by the outermost trusted proxy", () => {
    expect(clientAddress(requestWith("9.9.9.9, 1.2.3.4"), 1)).toBe("1.2.3.4");
    expect(clientAddress(requestWith("9.9.9.9, 1.2.3.4, 10.0.0.5"), 2)).toBe("1.2.3.4");
  });
  it("does not let a client forge its address by prepending entries", () => {
    expect(clientAddress(requestWith("6.6.6.6, 1.2.3.4"), 1)).toBe("1.2.3.4");
  });
  it("answers the leftmost entry when there are fewer entries than hops", () => {
    expect(clientAddress(requestWith("1.2.3.4"), 3)).toBe("1.2.3.4");
    expect(clientAddress(requestWith(), 1)).toBeNull();
  });
});
