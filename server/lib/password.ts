import { createHash, createHmac, hkdfSync, randomBytes, scryptSync, timingSafeEqual } from "node:crypto";
import { usingBytes } from "./wipe";

// Passwords and security answers are kept as scrypt hashes with a fresh salt per hash, the
// parameters in the stored string so they can be raised later without invalidating old hashes.
//
// ASVS 4.0.3 V2.4.5 (docs/decisions/183): before scrypt, the secret goes through HMAC-SHA-256 under
// a pepper, a key from the platform's environment (PLATFORM_PEPPER_KEYS) that the database never
// holds, so a copy of the database alone cannot be guessed against offline. The keys are a list:
// the first peppers new hashes, every one verifies; a hash under an older key, or one made before
// the pepper (`scrypt$…`), still verifies and is made again under the first key at the owner's
// next successful sign-in (`needsRehash`).
//
//   pscrypt$<key id>$N$r$p$salt$hash   (base64url; the key id: the first 8 hex digits of the
//                                       SHA-256 of the derived key, naming it without telling it)
//   scrypt$N$r$p$salt$hash             (before the pepper: verified, never written)

const N = 16384;
const R = 8;
const P = 1;
const KEY_LENGTH = 32;

/**
 * The pepper outside production when none is set: public (it is in this file), so it protects
 * nothing and production refuses it (server/env.ts).
 */
export const DEVELOPMENT_PEPPER_KEY = "client-online-development-only-password-pepper-not-for-production";

type PepperKey = { id: string; bytes: Buffer };
type Peppers = { current: PepperKey; byId: Map<string, PepperKey> };

function pepperKeyOf(secret: string): PepperKey {
  const bytes = usingBytes(Buffer.from(secret, "utf8"), (material) =>
    Buffer.from(hkdfSync("sha256", material, "client-online platform", "password pepper v1", 32)),
  );
  return { id: createHash("sha256").update(bytes).digest("hex").slice(0, 8), bytes };
}

function peppersOf(secrets: readonly string[]): Peppers {
  if (secrets.length === 0) throw new Error("at least one pepper key is needed");
  const keys = secrets.map(pepperKeyOf);
  return { current: keys[0]!, byId: new Map(keys.map((k) => [k.id, k])) };
}

// The process's peppers: set once at start from the environment (server/main.ts, `usePepperKeys`);
// the development pepper until then, as in tests.
let peppers = peppersOf([DEVELOPMENT_PEPPER_KEY]);

/** Takes the pepper keys: the first peppers new hashes, all verify. The keys replaced are zeroed. */
export function usePepperKeys(secrets: readonly string[]): void {
  const before = peppers;
  peppers = peppersOf(secrets);
  for (const key of before.byId.values()) key.bytes.fill(0);
}

/** The id of the key that peppers new hashes (start-up counts the hashes under other keys). */
export const currentPepperId = () => peppers.current.id;

/** The pepper key id of a stored hash; null for a hash made before the pepper, or not a hash. */
export function pepperIdOf(stored: string): string | null {
  const parts = stored.split("$");
  return parts.length === 7 && parts[0] === "pscrypt" ? (parts[1] ?? null) : null;
}

/** Whether a key id is one of the configured pepper keys. */
export const isKnownPepper = (id: string) => peppers.byId.has(id);

/** The secret under a pepper key: what scrypt hashes. */
function peppered(secret: string, key: PepperKey): Buffer {
  return createHmac("sha256", key.bytes).update(secret.normalize("NFC"), "utf8").digest();
}

export function hashSecret(secret: string): string {
  const key = peppers.current;
  const salt = randomBytes(16);
  const input = peppered(secret, key);
  const hash = scryptSync(input, salt, KEY_LENGTH, { N, r: R, p: P });
  const stored = ["pscrypt", key.id, N, R, P, salt.toString("base64url"), hash.toString("base64url")].join("$");
  input.fill(0);
  hash.fill(0);
  return stored;
}

export function verifySecret(secret: string, stored: string): boolean {
  const parts = stored.split("$");
  let known = true;
  let input: Buffer;
  let fields: string[];
  if (parts[0] === "pscrypt" && parts.length === 7) {
    const key = peppers.byId.get(parts[1] ?? "");
    // a key no longer configured: the same work with the current one, so the answer takes as long
    known = key !== undefined;
    input = peppered(secret, key ?? peppers.current);
    fields = parts.slice(2);
  } else if (parts[0] === "scrypt" && parts.length === 6) {
    input = Buffer.from(secret.normalize("NFC"), "utf8");
    fields = parts.slice(1);
  } else return false;
  try {
    const [n, r, p] = [Number(fields[0]), Number(fields[1]), Number(fields[2])];
    if (![n, r, p].every((v) => Number.isInteger(v) && v > 0)) return false;
    const salt = Buffer.from(fields[3] ?? "", "base64url");
    const expected = Buffer.from(fields[4] ?? "", "base64url");
    if (salt.length === 0 || expected.length === 0) return false;
    const actual = scryptSync(input, salt, expected.length, { N: n, r, p, maxmem: 256 * n * r * 2 });
    const equal = timingSafeEqual(actual, expected);
    actual.fill(0);
    return known && equal;
  } finally {
    input.fill(0);
  }
}

/** Whether a stored hash should be made again, now that its secret is known: not under the current pepper. */
export function needsRehash(stored: string): boolean {
  return pepperIdOf(stored) !== peppers.current.id;
}

/** A hash that matches nothing, verified against for unknown users so timing reveals nothing. */
export const DUMMY_HASH = hashSecret(randomBytes(16).toString("base64url"));
