import type { HeadersFunction } from "@remix-run/node";
import { env } from "~/runtime/env.server";

// Sign-in and recovery posts are limited per client address (issue: "Attempts are limited";
// docs/decisions/046). The platform locks accounts after repeated failures; this limit slows one
// address trying many accounts. It is kept in each instance's memory: behind a load balancer with N
// instances an address gets at most N times the limit, which is still a hard ceiling, and no shared
// store is needed. The numbers of posts are configurable (20 and 10 unless set), the windows not.
export const LIMITS = {
  signIn: { max: env.rateLimitSignIn, windowMs: 5 * 60_000 },
  recovery: { max: env.rateLimitRecovery, windowMs: 15 * 60_000 },
  // Every view of the login page with JavaScript asks for passkey options once (the autofill's
  // ceremony waits on them), and again after a failed attempt: five per sign-in post allowed.
  passkeyOptions: { max: env.rateLimitSignIn * 5, windowMs: 5 * 60_000 },
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
 * Counts a post of `bucket` from `address` (see clientAddress). Answers the seconds to wait when
 * over the limit, else null. Without an address (no connection: a test calling an action) nothing
 * is counted.
 */
export function checkRateLimit(address: string | null, bucket: Bucket): number | null {
  if (!address) return null;
  const waitMs = limiter.hit(bucket, address);
  return waitMs > 0 ? Math.ceil(waitMs / 1000) : null;
}

/**
 * A limited route's `headers`: the document answering a refused post (without JavaScript) carries
 * the action's Retry-After too; Remix keeps only cookies from an action unless the route says so.
 */
export const rateLimitHeaders: HeadersFunction = ({ actionHeaders, parentHeaders }) => {
  const headers = new Headers();
  // Remix adds the cookies of every route itself; copying them here would send them twice.
  for (const [name, value] of parentHeaders) if (name !== "set-cookie") headers.append(name, value);
  const retryAfter = actionHeaders.get("Retry-After");
  if (retryAfter) headers.set("Retry-After", retryAfter);
  return headers;
};
