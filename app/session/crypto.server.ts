import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";
import { env } from "~/runtime/env.server";

// design "Sessions and secrets": what the portal keeps in a browser (the session cookie, the
// sign-in and reset steps, the honeypot's timestamp) is sealed with AES-256-GCM under a key derived
// from SESSION_SECRET by HKDF, one key per purpose (docs/decisions/113). The first secret seals;
// every secret opens, so secrets can be rotated.
// Derived once per secret and purpose: every request opens the sealed token, and HKDF showed in
// the pages' CPU profile (issue 16).
const keys = new Map<string, Buffer>();

function keyFor(secret: string, purpose: string): Buffer {
  const id = `${purpose}\u0000${secret}`;
  let key = keys.get(id);
  if (!key) {
    key = Buffer.from(hkdfSync("sha256", secret, "client-online", purpose, 32));
    keys.set(id, key);
  }
  return key;
}

export function deriveSecret(purpose: string, secret: string = env.sessionSecrets[0]!): string {
  return keyFor(secret, purpose).toString("hex");
}

/** The default purpose: the sign-in and reset steps' cookies (and, before decision 113, the token). */
const STATE = "platform-token";

export function seal(plain: string | Buffer, secrets: string[] = env.sessionSecrets, purpose: string = STATE): string {
  return sealBytes(typeof plain === "string" ? Buffer.from(plain, "utf8") : plain, secrets, purpose);
}

export function unseal(value: string, secrets: string[] = env.sessionSecrets, purpose: string = STATE): string | null {
  return unsealBytes(value, secrets, purpose)?.toString("utf8") ?? null;
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
