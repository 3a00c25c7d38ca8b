import { createHash, timingSafeEqual } from "node:crypto";

// ASVS V1.2.2 (docs/decisions/186): the platform authenticates its caller, the portal, by a key the
// portal sends on every call; a list, so that a new key can be added before the old one is dropped.

export const CALLER_KEY_HEADER = "X-Caller-Key";

const digest = (key: string) => createHash("sha256").update(key, "utf8").digest();

/**
 * Whether a presented key is one of `keys`. Both sides are compared as SHA-256 digests (equal
 * lengths for timingSafeEqual) and every key is compared, so the time taken tells nothing of how
 * close a guess came, nor which key of the list matched.
 */
export function callerKeyChecker(keys: readonly string[]): (presented: string | string[] | undefined) => boolean {
  const digests = keys.map(digest);
  return (presented) => {
    if (typeof presented !== "string" || presented === "") return false;
    const given = digest(presented);
    let matched = false;
    for (const d of digests) matched = timingSafeEqual(d, given) || matched;
    return matched;
  };
}
