import { createCipheriv, createDecipheriv, createSecretKey, hkdfSync, type KeyObject, randomBytes } from "node:crypto";
import { usingBytes } from "~/lib/wipe.server";
import { env } from "~/runtime/env.server";

// design "Sessions and secrets": what the portal keeps in a browser (the session cookie, the
// sign-in and reset steps, the honeypot's timestamp) is sealed with AES-256-GCM under a key derived
// from SESSION_SECRET by HKDF, one key per purpose (docs/decisions/113). The first secret seals;
// every secret opens, so secrets can be rotated.
// Derived once per secret and purpose: every request opens the sealed token, and HKDF showed in
// the pages' CPU profile (issue 16). Kept as a KeyObject too: a cipher given the key's bytes makes
// a KeyObject of them on each call, which showed in the profile again (issue 38).
type DerivedKey = { key: KeyObject; hex: string };
const keys = new Map<string, DerivedKey>();

function derivedKey(secret: string, purpose: string): DerivedKey {
  const id = `${purpose}\u0000${secret}`;
  let derived = keys.get(id);
  if (!derived) {
    // the KeyObject keeps its own copy: the derived bytes are zeroed (V8.3.6, docs/decisions/185)
    derived = usingBytes(Buffer.from(hkdfSync("sha256", secret, "client-online", purpose, 32)), (bytes) => ({
      key: createSecretKey(bytes),
      hex: bytes.toString("hex"),
    }));
    keys.set(id, derived);
  }
  return derived;
}

const keyFor = (secret: string, purpose: string): KeyObject => derivedKey(secret, purpose).key;

export function deriveSecret(purpose: string, secret: string = env.sessionSecrets[0]!): string {
  return derivedKey(secret, purpose).hex;
}

/** The default purpose: the sign-in and reset steps' cookies (and, before decision 113, the token). */
const STATE = "platform-token";

export function seal(plain: string | Buffer, secrets: string[] = env.sessionSecrets, purpose: string = STATE): string {
  if (typeof plain !== "string") return sealBytes(plain, secrets, purpose);
  return usingBytes(Buffer.from(plain, "utf8"), (bytes) => sealBytes(bytes, secrets, purpose));
}

export function unseal(value: string, secrets: string[] = env.sessionSecrets, purpose: string = STATE): string | null {
  const bytes = unsealBytes(value, secrets, purpose);
  // the string answered cannot be zeroed; the bytes it was read from are (V8.3.6, docs/decisions/185)
  return bytes ? usingBytes(bytes, (plain) => plain.toString("utf8")) : null;
}

/** iv.tag.ciphertext, each base64url: a cookie-safe value with no further encoding. */
export function sealBytes(plain: Buffer, secrets: string[] = env.sessionSecrets, purpose: string = STATE): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", keyFor(secrets[0]!, purpose), iv);
  const sealed = Buffer.concat([cipher.update(plain), cipher.final()]);
  return [iv, cipher.getAuthTag(), sealed].map((b) => b.toString("base64url")).join(".");
}

/** The plain bytes, or null when the value was not sealed for this purpose under one of the secrets. */
export function unsealBytes(
  value: string,
  secrets: string[] = env.sessionSecrets,
  purpose: string = STATE,
): Buffer | null {
  const parts = value.split(".");
  if (parts.length !== 3) return null;
  const [iv, tag, sealed] = parts.map((p) => Buffer.from(p, "base64url"));
  if (!iv || iv.length !== 12 || !tag || tag.length !== 16 || !sealed) return null;
  for (const secret of secrets) {
    try {
      const decipher = createDecipheriv("aes-256-gcm", keyFor(secret, purpose), iv, { authTagLength: 16 });
      decipher.setAuthTag(tag);
      return Buffer.concat([decipher.update(sealed), decipher.final()]);
    } catch {
      // try the next secret
    }
  }
  return null;
}
