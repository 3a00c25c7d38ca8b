import { clientAddress } from "~/lib/client-address.server";

// Sign-in and recovery posts are limited per client address (issue: "Attempts are limited").
// The platform locks accounts after repeated failures; this limit slows one address trying many
// accounts. It is kept in each instance's memory: behind a load balancer with N instances an address
// gets at most N times the limit, which is still a hard ceiling, and no shared store is needed.
export const LIMITS = {
  signIn: { max: 20, windowMs: 5 * 60_000 },
  recovery: { max: 10, windowMs: 15 * 60_000 },
} as const;
export type Bucket = keyof typeof LIMITS;

type Window = { started: number; count: number };

export class RateLimiter {
  private windows = new Map<string, Window>();
  constructor(private readonly limits: Record<string, { max: number; windowMs: number }> = LIMITS) {}

  /** Counts one attempt; answers how long to wait (ms) when the address is over its limit, else 0. */
  hit(bucket: string, address: string, now = Date.now()): number {
    const limit = this.limits[bucket];
    if (!limit) throw new Error(`unknown rate-limit bucket ${bucket}`);
    const key = `${bucket}:${address}`;
    const current = this.windows.get(key);
    if (!current || now - current.started >= limit.windowMs) {
      this.windows.set(key, { started: now, count: 1 });
      this.sweep(now);
      return 0;
    }
    current.count += 1;
    return current.count > limit.max ? current.started + limit.windowMs - now : 0;
  }

  /** Drops finished windows so that memory stays bounded by the addresses of the last window. */
  private sweep(now: number) {
    if (this.windows.size < 10_000) return;
    for (const [key, w] of this.windows) {
      const bucket = key.slice(0, key.indexOf(":"));
      if (now - w.started >= (this.limits[bucket]?.windowMs ?? 0)) this.windows.delete(key);
    }
  }
}

const limiter = new RateLimiter();

/**
 * Counts a post of `bucket` from the request's address. Answers the seconds to wait when over the
 * limit, else null. Without a known address (no trusted proxy configured) nothing is limited here:
 * an address anyone can write into a header would only let one visitor lock out everyone.
 */
export function checkRateLimit(request: Request, bucket: Bucket): number | null {
  const address = clientAddress(request);
  if (!address) return null;
  const waitMs = limiter.hit(bucket, address);
  return waitMs > 0 ? Math.ceil(waitMs / 1000) : null;
}
