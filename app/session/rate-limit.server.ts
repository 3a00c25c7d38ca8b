import { createHash } from "node:crypto";
import type { HeadersFunction } from "@remix-run/node";
import { Redis } from "ioredis";
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from "rate-limiter-flexible";
import { env } from "~/runtime/env.server";
import { logger } from "~/runtime/logger.server";
import { rateLimitRefused } from "~/runtime/metrics.server";

// Sign-in and recovery posts are limited per client address (issue: "Attempts are limited";
// docs/decisions/046), and failed sign-ins per username too (docs/decisions/115): from browsers that
// have not signed in as the user, together; from each browser that has (its device cookie,
// docs/decisions/173), apart, so that strangers' failures never make the owner's browser wait. The counts are
// kept by rate-limiter-flexible: in this instance's memory when REDIS_URL is not set (one
// instance), in Redis when it is, so that every instance behind the load balancer shares them.
// While Redis cannot be reached each instance counts in its own memory and says so in its log
// (decision 115). The numbers are configurable, the windows not.
export const LIMITS = {
  signIn: { max: env.rateLimitSignIn, windowMs: 5 * 60_000 },
  recovery: { max: env.rateLimitRecovery, windowMs: 15 * 60_000 },
  // Every view of the login page with JavaScript asks for passkey options once (the autofill's
  // ceremony waits on them), and again after a failed attempt: five per sign-in post allowed.
  passkeyOptions: { max: env.rateLimitSignIn * 5, windowMs: 5 * 60_000 },
  // Failed password sign-ins per username, from any address: fewer than the platform's lockout
  // (the 5th consecutive wrong secret, decision 041), so that strangers cannot reach it quickly.
  signInFailures: { max: env.rateLimitSignInFailures, windowMs: 15 * 60_000 },
  // Failed password sign-ins of a username from one browser known for it (decision 173): as many,
  // counted by the browser's device cookie, so that its owner stops before the platform's lockout too.
  deviceFailures: { max: env.rateLimitSignInFailures, windowMs: 15 * 60_000 },
} as const;
export type Bucket = "signIn" | "recovery" | "passkeyOptions";
type Limit = { max: number; windowMs: number };
type Limits = Record<Bucket | "signInFailures" | "deviceFailures", Limit>;

/** A username as counted: trimmed and case-folded, so that 'Jane.Smith ' is 'jane.smith'. */
export function normaliseUsername(username: string): string {
  return username.normalize("NFKC").trim().toLowerCase();
}

/** The key of a username in the store: a digest, so that no username is kept there in clear. */
function usernameKey(username: string): string {
  return createHash("sha256").update(normaliseUsername(username)).digest("base64url");
}

/**
 * Whose failures a password sign-in counts against (decision 173): a browser known for the
 * username (the nonce of its device cookie), or every unknown browser together (null).
 */
export type SignInCounter = { username: string; device: string | null };

/** The store's key of a counter: a digest of the username, and of the device's nonce with it. */
function counterKey({ username, device }: SignInCounter): string {
  if (device === null) return usernameKey(username);
  return createHash("sha256")
    .update(`${normaliseUsername(username)}\u0000${device}`)
    .digest("base64url");
}

export type RateLimits = {
  /** True when the counts are kept in Redis (REDIS_URL), shared by every instance. */
  shared: boolean;
  /** Counts one post of `bucket` from `address`: the milliseconds to wait when over the limit, else 0. */
  hit: (bucket: Bucket, address: string) => Promise<number>;
  /**
   * Counts a password sign-in of a username as failed before the platform is asked (so that posts
   * at the same time are all counted), against its browser's count when the browser is known for
   * the username, else against the unknown browsers' count: the milliseconds to wait when it is
   * over the limit, else 0.
   */
  signInAttempt: (counter: SignInCounter) => Promise<number>;
  /** The attempt did not fail (a fault, a locked account): it is taken back. */
  signInNotFailed: (counter: SignInCounter) => Promise<void>;
  /**
   * The user proved who they are (a right password, a passkey, a completed reset): the unknown
   * browsers' failures of the username are forgotten, and this browser's when it is known.
   */
  signInSucceeded: (counter: SignInCounter) => Promise<void>;
  close: () => Promise<void>;
};

type Log = {
  warn: (message: string, fields?: Record<string, unknown>) => void;
  info: (message: string, fields?: Record<string, unknown>) => void;
};

export type RateLimitOptions = {
  limits: Limits;
  /** redis:// or rediss:// URL of the shared store; without it, this instance's memory. */
  redisUrl?: string;
  /** Prefix of every key, so that other users of the same Redis keep theirs apart. */
  keyPrefix: string;
  log?: Log;
  /** How long a Redis command may take before this instance counts in memory instead. */
  commandTimeoutMs?: number;
};

export function createRateLimits(options: RateLimitOptions): RateLimits {
  const { limits, redisUrl, keyPrefix, log = logger, commandTimeoutMs = 500 } = options;
  let client: Redis | null = null;
  let outage: Outage | null = null;
  if (redisUrl) {
    client = new Redis(redisUrl, {
      // Per the library's guide: a command while disconnected fails at once (and the count goes to
      // memory) instead of waiting in a queue; a command that hangs fails after the timeout.
      enableOfflineQueue: false,
      commandTimeout: commandTimeoutMs,
      connectTimeout: 2_000,
      maxRetriesPerRequest: 1,
      // Reconnects for ever, at most every 2 s; the store is used again as soon as it answers.
      retryStrategy: (times) => Math.min(times * 200, 2_000),
    });
    outage = watch(client, log, commandTimeoutMs);
  }
  const limiterOf = (name: string, { max, windowMs }: Limit): RateLimiterAbstract => {
    const common = { points: max, duration: Math.ceil(windowMs / 1000), keyPrefix: `${keyPrefix}:rl:${name}` };
    if (!client || !outage) return new RateLimiterMemory(common);
    return new RateLimiterRedis({
      ...common,
      storeClient: client,
      rejectIfRedisNotReady: true,
      // decision 115: while Redis is unreachable, this instance's memory keeps the limits
      insuranceLimiter: new InsuranceMemory(common, outage.fellBack),
    });
  };
  const buckets: Record<Bucket, RateLimiterAbstract> = {
    signIn: limiterOf("signIn", limits.signIn),
    recovery: limiterOf("recovery", limits.recovery),
    passkeyOptions: limiterOf("passkeyOptions", limits.passkeyOptions),
  };
  const failures = limiterOf("signInFailures", limits.signInFailures);
  const deviceFailures = limiterOf("deviceFailures", limits.deviceFailures);
  const counted = (counter: SignInCounter) => (counter.device === null ? failures : deviceFailures);
  // The first posts after a start wait (briefly) for the first connection, not the memory.
  const connected = () => outage?.firstConnection ?? Promise.resolve();

  return {
    shared: client !== null,
    async hit(bucket, address) {
      const limiter = buckets[bucket];
      if (!limiter) throw new Error(`unknown rate-limit bucket ${bucket}`);
      await connected();
      return refusedAs(bucket, await waitAfter(limiter, address));
    },
    async signInAttempt(counter) {
      await connected();
      const limit = counter.device === null ? "signInFailures" : "deviceFailures";
      return refusedAs(limit, await waitAfter(counted(counter), counterKey(counter)));
    },
    async signInNotFailed(counter) {
      await connected();
      await counted(counter).reward(counterKey(counter));
    },
    async signInSucceeded(counter) {
      await connected();
      await failures.delete(usernameKey(counter.username));
      if (counter.device !== null) await deviceFailures.delete(counterKey(counter));
    },
    async close() {
      if (client) client.disconnect();
    },
  };
}

/** Counts one point of `key`: the milliseconds to wait when that was over the limit, else 0. */
async function waitAfter(limiter: RateLimiterAbstract, key: string): Promise<number> {
  try {
    await limiter.consume(key);
    return 0;
  } catch (refused) {
    if (refused instanceof RateLimiterRes) return Math.max(refused.msBeforeNext, 1);
    throw refused;
  }
}

/** A refusal (a wait) is counted for the metrics under its limit's name (docs/decisions/126). */
function refusedAs(limit: Bucket | "signInFailures" | "deviceFailures", wait: number): number {
  if (wait > 0) rateLimitRefused(limit);
  return wait;
}

type Outage = { firstConnection: Promise<void>; fellBack: () => void };

/**
 * The store's state for the log: a warning when Redis cannot be reached or a count went to memory
 * (at most one a minute, however often ioredis retries), and a line when it answers again.
 */
function watch(client: Redis, log: Log, commandTimeoutMs: number): Outage {
  let warnedAt = 0;
  const warn = (reason: string) => {
    if (Date.now() - warnedAt < 60_000) return;
    warnedAt = Date.now();
    // Never the URL: it may carry the store's password.
    log.warn("Redis unreachable: rate limits kept in this instance's memory until it answers", { reason });
  };
  let settle: () => void = () => {};
  const firstConnection = new Promise<void>((resolve) => {
    settle = resolve;
    setTimeout(resolve, commandTimeoutMs * 2).unref();
  });
  client.on("ready", () => {
    settle();
    if (warnedAt) log.info("rate limits shared through Redis again", {});
    warnedAt = 0;
  });
  client.on("error", (error: NodeJS.ErrnoException) => {
    settle();
    warn(error.code ?? error.name);
  });
  return { firstConnection, fellBack: () => warn("a count went to memory") };
}

/** The memory that keeps the limits while Redis is unreachable; each use is reported. */
class InsuranceMemory extends RateLimiterMemory {
  constructor(
    options: ConstructorParameters<typeof RateLimiterMemory>[0],
    private readonly used: () => void,
  ) {
    super(options);
  }
  override consume(...args: Parameters<RateLimiterMemory["consume"]>) {
    this.used();
    return super.consume(...args);
  }
  override get(...args: Parameters<RateLimiterMemory["get"]>) {
    this.used();
    return super.get(...args);
  }
  override reward(...args: Parameters<RateLimiterMemory["reward"]>) {
    this.used();
    return super.reward(...args);
  }
  override delete(...args: Parameters<RateLimiterMemory["delete"]>) {
    this.used();
    return super.delete(...args);
  }
}

let current: RateLimits | null = null;
/** The portal's limits, made at first use: memory, or Redis when REDIS_URL is set. */
function rateLimits(): RateLimits {
  current ??= createRateLimits({ limits: LIMITS, redisUrl: env.redisUrl ?? undefined, keyPrefix: env.appId });
  return current;
}

/**
 * Counts a post of `bucket` from `address` (see clientAddress). Answers the seconds to wait when
 * over the limit, else null. Without an address (no connection: a test calling an action) nothing
 * is counted.
 */
export async function checkRateLimit(address: string | null, bucket: Bucket): Promise<number | null> {
  if (!address) return null;
  const waitMs = await rateLimits().hit(bucket, address);
  if (waitMs <= 0) return null;
  const seconds = Math.ceil(waitMs / 1000);
  logRefusal({ step: bucket, limit: "address", address, seconds });
  return seconds;
}

/**
 * ASVS V7.2.1 (docs/decisions/174): a refusal by a limit is an authentication decision, logged
 * here for every limited route; a username only as the digest the limiter keeps.
 */
function logRefusal(fields: { step: string; limit: string; address: string; seconds: number; userKey?: string }) {
  logger.warn("auth", { outcome: "refused", reason: `rate limited: ${fields.limit}`, ...fields });
}

/**
 * docs/decisions/115 and 173: counts a password sign-in of a username, from any address, as failed
 * until the platform answers (countSignIn): against this browser's count when its device cookie is
 * for the username, else against the username's count for unknown browsers. Answers the seconds to
 * wait when that count is over its limit, else null. As with checkRateLimit, nothing is counted
 * without a connection.
 */
export async function checkUsernameLimit(address: string | null, counter: SignInCounter): Promise<number | null> {
  if (!address) return null;
  const waitMs = await rateLimits().signInAttempt(counter);
  if (waitMs <= 0) return null;
  const seconds = Math.ceil(waitMs / 1000);
  const limit = counter.device === null ? "username" : "device";
  logRefusal({ step: "password", limit, address, seconds, userKey: usernameKey(counter.username) });
  return seconds;
}

/**
 * The platform's answer to a password sign-in that checkUsernameLimit let through: a failure stays
 * counted, a success clears the username's count (and this browser's), anything else (a fault, a
 * locked account) is taken back.
 */
export async function countSignIn(
  address: string | null,
  counter: SignInCounter,
  outcome: "failed" | "succeeded" | "neither",
): Promise<void> {
  if (!address || outcome === "failed") return;
  if (outcome === "succeeded") await rateLimits().signInSucceeded(counter);
  else await rateLimits().signInNotFailed(counter);
}

/**
 * Decision 173: the user has proven who they are without a password sign-in (a passkey, a
 * completed password reset): the username's failed sign-ins from unknown browsers are forgotten,
 * and this browser's (`device`, the nonce of its device cookie for the user) when it is known.
 */
export async function clearSignInFailures(username: string, device: string | null = null): Promise<void> {
  await rateLimits().signInSucceeded({ username, device });
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
