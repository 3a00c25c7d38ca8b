import { randomBytes, scryptSync, timingSafeEqual } from "node:crypto";

// scrypt with a fresh salt per hash, parameters kept in the stored string so they can be raised
// later without invalidating old hashes: scrypt$N$r$p$salt$hash (base64url).
const N = 16384;
const R = 8;
const P = 1;
const KEY_LENGTH = 32;

export function hashSecret(secret: string): string {
  const salt = randomBytes(16);
  const key = scryptSync(secret.normalize("NFC"), salt, KEY_LENGTH, { N, r: R, p: P });
  return ["scrypt", N, R, P, salt.toString("base64url"), key.toString("base64url")].join("$");
}

export function verifySecret(secret: string, stored: string): boolean {
  const parts = stored.split("$");
  if (parts.length !== 6 || parts[0] !== "scrypt") return false;
  const [n, r, p] = [Number(parts[1]), Number(parts[2]), Number(parts[3])];
  if (![n, r, p].every((v) => Number.isInteger(v) && v > 0)) return false;
  const salt = Buffer.from(parts[4] ?? "", "base64url");
  const expected = Buffer.from(parts[5] ?? "", "base64url");
  if (salt.length === 0 || expected.length === 0) return false;
  const actual = scryptSync(secret.normalize("NFC"), salt, expected.length, { N: n, r, p, maxmem: 256 * n * r * 2 });
  return timingSafeEqual(actual, expected);
}

/** A hash that matches nothing, verified against for unknown users so timing reveals nothing. */
export const DUMMY_HASH = hashSecret(randomBytes(16).toString("base64url"));
