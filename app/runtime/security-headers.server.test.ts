import { describe, expect, it } from "vitest";
import {
  apiAnswerDisposition,
  everyAnswerHeaders,
  NOT_A_PAGE_CONTENT_SECURITY_POLICY,
  notAPageHeaders,
  securityHeaders,
} from "./security-headers.server";

// docs/decisions/112: one source of truth for the headers of pages and of every other answer.

describe("the security headers", () => {
  it("of a page are those of every answer, with the nonce policy and no caching", () => {
    const page = securityHeaders("abc", false);
    expect(page).toMatchObject(everyAnswerHeaders(false));
    expect(page["Content-Security-Policy"]).toContain("script-src 'self' 'nonce-abc' 'strict-dynamic'");
    expect(page["Cache-Control"]).toBe("private, no-store");
  });

  it("of anything else forbid loading, running and framing", () => {
    const other = notAPageHeaders(false);
    expect(other).toMatchObject(everyAnswerHeaders(false));
    expect(other["Content-Security-Policy"]).toBe(NOT_A_PAGE_CONTENT_SECURITY_POLICY);
    expect(NOT_A_PAGE_CONTENT_SECURITY_POLICY).toBe("default-src 'none'; frame-ancestors 'none'; sandbox");
    expect(other["Cache-Control"]).toBeUndefined();
  });

  it("ask for HTTPS only outside development", () => {
    expect(everyAnswerHeaders(false)["Strict-Transport-Security"]).toBe("max-age=31536000; includeSubDomains");
    expect(everyAnswerHeaders(true)["Strict-Transport-Security"]).toBeUndefined();
  });

  it("make a JSON answer a download named api.json, and nothing else (ASVS V14.4.2, decision 169)", () => {
    const api = 'attachment; filename="api.json"';
    expect(apiAnswerDisposition("application/json; charset=utf-8")).toBe(api);
    expect(apiAnswerDisposition("Application/JSON")).toBe(api);
    expect(apiAnswerDisposition("application/problem+json")).toBe(api);
    for (const other of [
      "text/html; charset=utf-8",
      "text/plain",
      "text/csv",
      "application/pdf",
      "",
      null,
      undefined,
    ]) {
      expect(apiAnswerDisposition(other), String(other)).toBeNull();
    }
  });
});
