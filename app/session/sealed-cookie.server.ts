import { createCookie, type Cookie, type CookieOptions } from "@remix-run/node";
import { deflateRawSync, inflateRawSync } from "node:zlib";
import { LRUCache } from "lru-cache";
import { usingBytes } from "~/lib/wipe.server";
import { env } from "~/runtime/env.server";
import { sealBytes, unsealBytes } from "./crypto.server";

/**
 * A cookie whose whole value is sealed (docs/decisions/113): the JSON of its content, deflated,
 * then AES-256-GCM under a key derived from SESSION_SECRET for this cookie's purpose. What the
 * browser holds is `iv.tag.ciphertext` in base64url: nothing in it can be read, and a value that
 * was changed, sealed for another purpose or under a secret no longer in the list reads as no
 * cookie. The first secret seals, every secret opens (rotation).
 *
 * It is a Remix `Cookie`, so `createCookieSessionStorage` and the cookies' readers use it as they
 * used a signed one. The attributes (Path, HttpOnly, SameSite, Secure, Max-Age, Expires) are
 * written by Remix's own cookie; only the value is this module's.
 */
export function createSealedCookie(
  name: string,
  options: Omit<CookieOptions, "secrets" | "encode" | "decode">,
  purpose: string,
  secrets: string[] = env.sessionSecrets,
): Cookie {
  const attributes = createCookie(name, options);
  // A browser sends the same sealed value on each page until the content changes: what it opens
  // to is kept, by the value, for the next page (issue 38). The value authenticates itself, so a
  // kept reading is the one opening it again would give; frozen, as it is shared.
  // Only what opens is kept: a forged value costs its opening each time, never a kept place.
  const readings = new LRUCache<string, { content: unknown }>({ max: READINGS_KEPT });
  /** The content sealed in `value`, or null when it does not open. */
  function open(value: string): unknown {
    const packed = unsealBytes(value, secrets, purpose);
    if (!packed) return null;
    try {
      // the opened and inflated bytes zeroed once read (docs/decisions/185)
      const inflated = usingBytes(packed, (bytes) => inflateRawSync(bytes));
      return usingBytes(inflated, (json) => JSON.parse(json.toString("utf8")) as unknown);
    } catch {
      return null;
    }
  }
  return {
    name,
    // The seal's tag authenticates the value, as a signature would (Remix warns about unsigned
    // session cookies).
    isSigned: true,
    get expires() {
      return attributes.expires;
    },
    async parse(cookieHeader) {
      const value = rawValue(cookieHeader, name);
      if (!value) return null;
      const kept = readings.get(value);
      if (kept) return kept.content;
      const content = deepFreeze(open(value));
      if (content !== null) readings.set(value, { content });
      return content;
    },
    async serialize(value, serializeOptions) {
      // Remix's own Set-Cookie for an empty value, so the attributes are exactly a Remix cookie's.
      const empty = await attributes.serialize("", serializeOptions);
      if (value === "" || value === null || value === undefined) return empty;
      // the bytes of the content and of its deflated form are zeroed once sealed (docs/decisions/185)
      const deflated = usingBytes(Buffer.from(JSON.stringify(value), "utf8"), (json) => deflateRawSync(json));
      const sealed = usingBytes(deflated, () => sealBytes(deflated, secrets, purpose));
      return `${name}=${sealed}${empty.slice(name.length + 1)}`;
    },
  };
}

/** Sealed values whose content each cookie keeps: the sessions in use on one instance. */
const READINGS_KEPT = 1_000;

function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

/** The raw value of the cookie `name` in a Cookie header (the first one, as Remix reads it). */
export function rawValue(cookieHeader: string | null | undefined, name: string): string | null {
  if (!cookieHeader) return null;
  for (const part of cookieHeader.split(";")) {
    const at = part.indexOf("=");
    if (at < 0 || part.slice(0, at).trim() !== name) continue;
    return part.slice(at + 1).trim() || null;
  }
  return null;
}
