import { describe, expect, it } from "vitest";
import { runWithRequestId } from "./request-id.server";
import { originHeaders, originOfConnection } from "./request-origin.server";

// docs/decisions/164: where a request came from, passed on to the platform for the owner's notices.

describe("the request's origin", () => {
  it("is the client's address by the trusted-proxy rule, and its browser as printable text", () => {
    expect(originOfConnection({ socketAddress: "::ffff:203.0.113.9", userAgent: "Firefox/133.0" }, 0)).toEqual({
      address: "203.0.113.9",
      userAgent: "Firefox/133.0",
    });
    expect(
      originOfConnection({ socketAddress: "10.0.0.2", forwardedFor: "1.2.3.4, 198.51.100.4", userAgent: "x" }, 1),
    ).toEqual({ address: "198.51.100.4", userAgent: "x" });
    expect(originOfConnection({ userAgent: "Caf\u00e9\tBrowser\u0000" }, 0)).toEqual({
      address: null,
      userAgent: "Caf Browser",
    });
    expect(originOfConnection({ userAgent: "y".repeat(400) }, 0).userAgent).toHaveLength(256);
    expect(originOfConnection({}, 0)).toEqual({ address: null, userAgent: null });
  });

  it("gives the headers inside a request only, and only what is known", () => {
    expect(originHeaders()).toEqual({});
    expect(runWithRequestId("r1", () => originHeaders(), "/", { socketAddress: "203.0.113.9" })).toEqual({
      "x-client-address": "203.0.113.9",
    });
    expect(runWithRequestId("r2", () => originHeaders(), "/")).toEqual({});
  });
});
