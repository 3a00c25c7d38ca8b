import { createHash, randomBytes } from "node:crypto";

/** A session token or login ticket: 32 random bytes, base64url. */
export function newToken(): string {
  return randomBytes(32).toString("base64url");
}

/** Only this digest of a token is stored, so a copy of the database opens no session. */
export function tokenDigest(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}
