import { describe, expect, it } from "vitest";
import { clientAddress } from "./client-address.server";

const requestWith = (xff?: string) =>
  new Request("http://portal.test/", { headers: xff ? { "x-forwarded-for": xff } : {} });
const from = (socketAddress: string) => ({ socketAddress });

describe("clientAddress", () => {
  describe("with no trusted proxy (TRUST_PROXY_HOPS=0)", () => {
    it("is the address of the connection", () => {
      expect(clientAddress(requestWith(), from("203.0.113.9"), 0)).toBe("203.0.113.9");
      expect(clientAddress(requestWith(), from("2001:db8::7"), 0)).toBe("2001:db8::7");
    });
    it("ignores X-Forwarded-For, which anyone can write", () => {
      expect(clientAddress(requestWith("1.2.3.4"), from("203.0.113.9"), 0)).toBe("203.0.113.9");
      expect(clientAddress(requestWith("1.2.3.4, 5.6.7.8"), from("203.0.113.9"), 0)).toBe("203.0.113.9");
    });
    it("spells an IPv4 client on a dual-stack socket as IPv4", () => {
      expect(clientAddress(requestWith(), from("::ffff:203.0.113.9"), 0)).toBe("203.0.113.9");
    });
    it("is unknown without a connection (an action called by a test)", () => {
      expect(clientAddress(requestWith("1.2.3.4"), {}, 0)).toBeNull();
    });
  });

  describe("behind one trusted proxy", () => {
    it("takes the entry the proxy appended, not the proxy's own address", () => {
      expect(clientAddress(requestWith("1.2.3.4"), from("10.0.0.2"), 1)).toBe("1.2.3.4");
    });
    it("does not let a client forge its address by prepending entries", () => {
      expect(clientAddress(requestWith("6.6.6.6, 1.2.3.4"), from("10.0.0.2"), 1)).toBe("1.2.3.4");
      expect(clientAddress(requestWith("6.6.6.6,7.7.7.7 , 1.2.3.4"), from("10.0.0.2"), 1)).toBe("1.2.3.4");
    });
    it("falls back to the connection when the request did not come through the proxy", () => {
      expect(clientAddress(requestWith(), from("198.51.100.4"), 1)).toBe("198.51.100.4");
      expect(clientAddress(requestWith(" , "), from("198.51.100.4"), 1)).toBe("198.51.100.4");
    });
  });

  describe("behind two trusted proxies", () => {
    it("takes the entry the outer proxy appended", () => {
      expect(clientAddress(requestWith("1.2.3.4, 10.0.0.5"), from("10.0.0.2"), 2)).toBe("1.2.3.4");
    });
    it("does not let a client forge its address by prepending entries", () => {
      expect(clientAddress(requestWith("6.6.6.6, 1.2.3.4, 10.0.0.5"), from("10.0.0.2"), 2)).toBe("1.2.3.4");
    });
    it("trusts no entry when there are fewer than the proxies: the connection is the client", () => {
      // A client reaching the portal directly, past the proxies, wrote the only entry itself.
      expect(clientAddress(requestWith("6.6.6.6"), from("203.0.113.9"), 2)).toBe("203.0.113.9");
    });
  });
});
