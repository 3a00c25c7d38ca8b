import { describe, expect, it } from "vitest";
import { currentRequestContext } from "./request-context.server";
import { currentRequestId, requestIdHeader, requestIdOf, runWithRequestId } from "./request-id.server";

// issue 26: a request's id is the load balancer's when sane, else made; the request's work sees it.

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe("the request id", () => {
  it("keeps a sane incoming id: nginx's $request_id, a UUID, dots, colons and underscores", () => {
    for (const id of [
      "0f8b3c2e9a1d4c5b8e7f6a5b4c3d2e1f",
      "6c1b2a9e-0000-4000-8000-000000000001",
      "lb-1.eu:req_42",
      "x",
      "a".repeat(128),
    ]) {
      expect(requestIdOf(id)).toBe(id);
    }
  });

  it("makes a new id when none is given or the given one is not sane", () => {
    const refused = [
      "",
      "a".repeat(129),
      "id with spaces",
      'id"quote',
      "line\nbreak",
      '{"json":1}',
      "ünïcode",
      "a/b",
      "a;b",
    ];
    for (const id of [undefined, null, ...refused]) {
      const made = requestIdOf(id);
      expect(made).toMatch(UUID);
      expect(made).not.toBe(id);
    }
    expect(requestIdOf(undefined)).not.toBe(requestIdOf(undefined));
  });

  it("is the request's inside its work, across awaits, and nobody's outside", async () => {
    expect(currentRequestId()).toBeUndefined();
    expect(requestIdHeader()).toEqual({});
    const seen = await runWithRequestId("req-1", async () => {
      await new Promise((r) => setTimeout(r, 1));
      const inner = await Promise.all([
        runWithRequestId("req-2", async () => currentRequestId()),
        Promise.resolve().then(() => currentRequestId()),
      ]);
      return [currentRequestId(), requestIdHeader(), ...inner];
    });
    expect(seen).toEqual(["req-1", { "X-Request-Id": "req-1" }, "req-2", "req-1"]);
    expect(currentRequestId()).toBeUndefined();
  });

  it("knows who is asking: the address behind the trusted proxies, and the browser", () => {
    // no trusted proxy (the default): the connection's address, an IPv4 client spelt as IPv4
    const origin = (connection?: Parameters<typeof runWithRequestId>[3]) =>
      runWithRequestId("req-3", () => currentRequestContext()?.origin, "/", connection);
    expect(
      origin({ forwardedFor: "198.51.100.1", socketAddress: "::ffff:203.0.113.5", userAgent: " Firefox " }),
    ).toEqual({ address: "203.0.113.5", userAgent: "Firefox" });
    expect(origin({ socketAddress: "2001:db8::9", userAgent: "Safari" })).toEqual({
      address: "2001:db8::9",
      userAgent: "Safari",
    });
    expect(origin({})).toEqual({ address: null, userAgent: null });
    expect(origin()).toBeUndefined();
  });
});
