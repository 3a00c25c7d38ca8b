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
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "strict-origin-when-cross-origin",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=(), payment=()",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cache-Control": "private, no-store",
    ...(isDevelopment ? {} : { "Strict-Transport-Security": "max-age=31536000; includeSubDomains" }),
  };
}
