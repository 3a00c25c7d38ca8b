import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from "node:crypto";
import { customType } from "drizzle-orm/sqlite-core";
import { usingBytes } from "./wipe";

// Secrets the platform must read back (TOTP keys, memorable words, a sign-in's step state) are
// kept encrypted in its database (ASVS V2.8.2, V8.3.7; docs/decisions/172): AES-256-GCM with a
// key from the platform's environment, PLATFORM_SECRET_KEYS, a comma-separated list as the
// portal's SESSION_SECRET is. The first key seals; every key in the list opens, so a key is
// rotated by putting the new one first and keeping the old one until the platform has started once
// (start-up seals again every value sealed with another key, `resealSecrets`), then dropping it.
//
// A sealed value is `enc1.<key id>.<base64url of the 12-byte nonce, the ciphertext and the 16-byte
// tag>`, the column's name bound in as additional data, so a value copied into another column
// does not open. The key id is the first 8 hex digits of the SHA-256 of the derived key: it says
// which key opens a value without saying anything of the key.

const PREFIX = "enc1";
const NONCE_BYTES = 12;
const TAG_BYTES = 16;

/**
 * The key outside production when none is set: public (it is in this file), so it protects nothing
 * and production refuses it (server/env.ts). It keeps development's and the tests' databases
 * readable from one start to the next.
 */
export const DEVELOPMENT_SECRET_KEY = "client-online-development-only-secret-key-not-for-production";

type Key = { id: string; bytes: Buffer };
type Keyring = { sealing: Key; opening: Map<string, Key> };

function keyOf(secret: string): Key {
  const bytes = usingBytes(Buffer.from(secret, "utf8"), (material) =>
    Buffer.from(hkdfSync("sha256", material, "client-online platform", "secrets at rest v1", 32)),
  );
  return { id: createHash("sha256").update(bytes).digest("hex").slice(0, 8), bytes };
}

export function keyringOf(secrets: readonly string[]): Keyring {
  if (secrets.length === 0) throw new Error("at least one secret key is needed");
  const keys = secrets.map(keyOf);
  return { sealing: keys[0]!, opening: new Map(keys.map((k) => [k.id, k])) };
}

// The process's keys: set once at start from the environment (server/main.ts, `useSecretKeys`);
// the development key until then, as in tests.
let keyring = keyringOf([DEVELOPMENT_SECRET_KEY]);

/** Takes the keys to seal and open with: the first seals, all open. */
export function useSecretKeys(secrets: readonly string[]): void {
  const before = keyring;
  keyring = keyringOf(secrets);
  // the keys replaced: zeroed (V8.3.6, docs/decisions/185)
  for (const key of before.opening.values()) key.bytes.fill(0);
}

export function isSealed(stored: string): boolean {
  return stored.startsWith(`${PREFIX}.`);
}

/** Whether a stored value is sealed with the key that seals now (else start-up seals it again). */
export function isSealedWithCurrentKey(stored: string): boolean {
  return stored.startsWith(`${PREFIX}.${keyring.sealing.id}.`);
}

export function sealSecret(plain: string, column: string): string {
  const nonce = randomBytes(NONCE_BYTES);
  const cipher = createCipheriv("aes-256-gcm", keyring.sealing.bytes, nonce);
  cipher.setAAD(Buffer.from(column, "utf8"));
  const encrypted = usingBytes(Buffer.from(plain, "utf8"), (bytes) => cipher.update(bytes));
  const sealed = Buffer.concat([nonce, encrypted, cipher.final(), cipher.getAuthTag()]);
  return `${PREFIX}.${keyring.sealing.id}.${sealed.toString("base64url")}`;
}

/**
 * The plain value of a stored one. A value stored before encryption (no prefix) is answered as it
 * is, so that nothing breaks before start-up has sealed it; a sealed value whose key is not in the
 * list, or that was tampered with, throws: the platform must not go on with a wrong secret.
 */
export function openSecret(stored: string, column: string): string {
  if (!isSealed(stored)) return stored;
  const [, id, body] = stored.split(".");
  const key = id ? keyring.opening.get(id) : undefined;
  if (!key || !body) throw new Error(`a secret in ${column} is sealed with a key that is not in PLATFORM_SECRET_KEYS`);
  const bytes = Buffer.from(body, "base64url");
  const decipher = createDecipheriv("aes-256-gcm", key.bytes, bytes.subarray(0, NONCE_BYTES));
  decipher.setAAD(Buffer.from(column, "utf8"));
  decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
  const opened = Buffer.concat([
    decipher.update(bytes.subarray(NONCE_BYTES, bytes.length - TAG_BYTES)),
    decipher.final(),
  ]);
  // the string answered cannot be zeroed; the bytes it was read from are (V8.3.6, docs/decisions/185)
  return usingBytes(opened, (plain) => plain.toString("utf8"));
}

/**
 * A text column whose values are sealed on the way in and opened on the way out: the code reads and
 * writes plain values, the database holds only sealed ones. Never compared in SQL (each sealing of
 * the same value differs).
 */
export const sealedText = (column: string) =>
  customType<{ data: string; driverData: string }>({
    dataType: () => "text",
    toDriver: (value) => sealSecret(value, column),
    fromDriver: (value) => openSecret(value, column),
  })(column);
