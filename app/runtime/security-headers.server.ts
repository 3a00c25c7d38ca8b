// The portal's security headers, in one place (docs/decisions/112). Pages get theirs in
// entry.server, with the nonce of their scripts; the portal's server (scripts/portal-server.mjs)
// adds to every other answer, whatever sent it (a resource route, a data request, a static file, a
// refusal), the headers that answer did not set itself.

/** A policy for what is not a page (files, JSON, text, images): it may load, run and frame nothing. */
export const NOT_A_PAGE_CONTENT_SECURITY_POLICY = "default-src 'none'; frame-ancestors 'none'; sandbox";

/** The headers every answer carries, page or not; a route's own value of one of them is kept. */
export function everyAnswerHeaders(isDevelopment: boolean): Record<string, string> {
  return {
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "strict-origin-when-cross-origin",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=(), payment=()",
    "Cross-Origin-Opener-Policy": "same-origin",
    ...(isDevelopment ? {} : { "Strict-Transport-Security": "max-age=31536000; includeSubDomains" }),
  };
}

/** The headers of an answer that is not a page, where the answer has not set them itself. */
export function notAPageHeaders(isDevelopment: boolean): Record<string, string> {
  return { "Content-Security-Policy": NOT_A_PAGE_CONTENT_SECURITY_POLICY, ...everyAnswerHeaders(isDevelopment) };
}

/** The file name a JSON answer is saved under when a browser is sent to it (ASVS 4.0.3 V14.4.2). */
export const API_ANSWER_FILENAME = "api.json";

/**
 * ASVS 4.0.3 V14.4.2 (issue 39, docs/decisions/169): an answer that is data, not a page (a data
 * request's `?_data=` JSON, a resource route's JSON such as the heartbeat's), is a download when a
 * browser is sent to it, never a document it renders: the Content-Disposition it gets when it has
 * none; null for anything else (pages, files, which name their own, and plain-text refusals, which
 * a person reads). The portal's scripts read these answers with fetch, which ignores the header.
 */
export function apiAnswerDisposition(contentType: string | null | undefined): string | null {
  const type = contentType?.split(";")[0]?.trim().toLowerCase();
  if (!type || !(type === "application/json" || type.endsWith("+json"))) return null;
  return `attachment; filename="${API_ANSWER_FILENAME}"`;
}

/** The security headers of every page (design: set in entry.server). */
export function securityHeaders(nonce: string, isDevelopment: boolean): Record<string, string> {
  const connect = isDevelopment ? "'self' ws://localhost:*" : "'self'";
  return {
    "Content-Security-Policy": [
      "default-src 'self'",
      `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'`,
      "style-src 'self' 'unsafe-inline'",
      "img-src 'self' data:",
      "font-src 'self'",
      `connect-src ${connect}`,
      "form-action 'self'",
      "frame-ancestors 'none'",
      "base-uri 'self'",
      "object-src 'none'",
    ].join("; "),
    ...everyAnswerHeaders(isDevelopment),
    "Cache-Control": "private, no-store",
  };
}
