import { hash, randomBytes } from "node:crypto";

/** A session token or login ticket: 32 random bytes, base64url. */
export function newToken(): string {
  return randomBytes(32).toString("base64url");
}

/** Only this digest of a token is stored, so a copy of the database opens no session. */
export function tokenDigest(token: string): string {
  // the one-shot digest: no Hash object per call (every platform call digests its token)
  return hash("sha256", token, "hex");
}
