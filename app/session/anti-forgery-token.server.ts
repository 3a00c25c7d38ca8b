import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { createCookie } from "@remix-run/node";
import { LRUCache } from "lru-cache";
import { env } from "~/runtime/env.server";
import { cookieName } from "./cookie-name.server";
import { deriveSecret } from "./crypto.server";
import { rawValue } from "./sealed-cookie.server";

// The anti-forgery token and its cookie (docs/decisions/113), bound to the session (issue 39 finding
// 5, docs/decisions/167): a token is 32 random bytes and their HMAC-SHA256 together with the
// platform session of the session cookie it was made for, so a token pair taken from one session
// (its cookie and its field) is refused with any other session. A signed-out visitor's token is
// bound to no session (the HMAC of the random bytes alone, the format of before); signing in and
// out make a new one. Everything the check needs is in the request's cookies and SESSION_SECRET:
// no instance keeps a token, so any instance behind the load balancer checks any form.

/** Whom a token is for: the platform session of the browser's session cookie, or null (signed out). */
export type TokenBinding = string | null;

const TOKEN_BYTES = 32;
const COOKIE = cookieName("csrf");

// Remix's signed cookie of before (docs/decisions/113); the field carries the same string.
const tokenCookie = createCookie(COOKIE, {
  path: "/",
  httpOnly: true,
  sameSite: "lax",
  secure: env.cookieSecure,
  secrets: env.sessionSecrets,
});

function signatureOf(value: string, binding: TokenBinding, secret: string): Buffer {
  const hmac = createHmac("sha256", deriveSecret("csrf", secret)).update(value);
  // the random part is base64url, without ".": `value.session` reads one way only
  if (binding !== null) hmac.update(`.${binding}`);
  return hmac.digest();
}

/** A token this portal signed for `binding`, under any secret of the rotation list. */
function isSignedFor(token: string, binding: TokenBinding): boolean {
  const [value, signature, ...rest] = token.split(".");
  if (!value || !signature || rest.length > 0) return false;
  const given = Buffer.from(signature, "base64url");
  return env.sessionSecrets.some((secret) => {
    const expected = signatureOf(value, binding, secret);
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}

/** A new token for `binding` and the Set-Cookie that stores it. */
export async function issueToken(binding: TokenBinding): Promise<[token: string, setCookie: string]> {
  const value = randomBytes(TOKEN_BYTES).toString("base64url");
  const token = `${value}.${signatureOf(value, binding, env.sessionSecrets[0]!).toString("base64url")}`;
  return [token, await tokenCookie.serialize(token)];
}

// A browser sends the same token cookie with every page: the token a cookie value holds for a
// session is kept by the two (issue 38), so its signatures are checked once, not on every page.
// Only values that check out are kept; the cache spares work, it decides nothing.
const tokensOfCookies = new LRUCache<string, string>({ max: 1_000 });

/**
 * Whether the browser's cookie holds a token this portal made for a session (its cookie's signature
 * holds, its HMAC is not a signed-out visitor's): with no session cookie beside it, the browser's
 * session has ended and its cookie is gone (a guard or another tab dropped it, the browser closed).
 */
export async function heldForASession(cookieHeader: string | null): Promise<boolean> {
  if (rawValue(cookieHeader, COOKIE) === null) return false;
  const value: unknown = await tokenCookie.parse(cookieHeader);
  return typeof value === "string" && value.includes(".") && !isSignedFor(value, null);
}

/** The token in the browser's cookie when this portal signed it for `binding`; else null. */
export async function tokenInCookie(cookieHeader: string | null, binding: TokenBinding): Promise<string | null> {
  const raw = rawValue(cookieHeader, COOKIE);
  if (raw === null) return null;
  const key = `${binding ?? ""}\u0000${raw}`;
  const kept = tokensOfCookies.get(key);
  if (kept !== undefined) return kept;
  const value: unknown = await tokenCookie.parse(cookieHeader);
  if (typeof value !== "string" || !isSignedFor(value, binding)) return null;
  tokensOfCookies.set(key, value);
  return value;
}
