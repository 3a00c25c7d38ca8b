import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";
import { env } from "~/runtime/env.server";

// design "Sessions and secrets": the cookie is signed, not encrypted, so the platform token
// inside it is sealed with AES-256-GCM under a key derived from SESSION_SECRET. The first secret
// seals; every secret opens, so secrets can be rotated.
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

export function seal(plain: string, secrets: string[] = env.sessionSecrets): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", keyFor(secrets[0]!, "platform-token"), iv);
  const sealed = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return [iv, cipher.getAuthTag(), sealed].map((b) => b.toString("base64url")).join(".");
}

export function unseal(value: string, secrets: string[] = env.sessionSecrets): string | null {
  const [iv, tag, sealed] = value.split(".").map((p) => Buffer.from(p, "base64url"));
  if (!iv || !tag || !sealed) return null;
  for (const secret of secrets) {
    try {
      const decipher = createDecipheriv("aes-256-gcm", keyFor(secret, "platform-token"), iv);
      decipher.setAuthTag(tag);
      return Buffer.concat([decipher.update(sealed), decipher.final()]).toString("utf8");
    } catch {
      // try the next secret
    }
  }
  return null;
}
