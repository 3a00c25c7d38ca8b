import { randomBytes } from "node:crypto";
import { z } from "zod";
import { type ClamdAddress, parseClamdAddress, SCANNING_OFF } from "~/lib/virus-scan.server";
import { type ReadSecretFile, withSecretFiles } from "./secret-files.server";

// Configuration is read once, here, and validated; nothing else reads process.env.

/** The levels of LOG_LEVEL, from nothing written to everything. */
export const LOG_LEVELS = ["silent", "fatal", "error", "warn", "info", "debug", "trace"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** A production secret is at least this long (docs/decisions/113): 256 bits for the HMAC and HKDF. */
export const MIN_SECRET_BYTES = 32;
// Fixed secrets that were ever written in the repository (the demo start's old default) or are
// placeholders meant to be changed: public, so never a production secret (docs/decisions/113).
const KNOWN_DEFAULT_SECRETS = ["development-only-secret-change-me"];
const PLACEHOLDER = /change[-_ ]?me|example|placeholder/i;

function secretsOf(value: string): string[] {
  return value
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
}

/** Why a production secret is refused, or null; the message names the secret by position, never its value. */
function weakness(secret: string): string | null {
  if (KNOWN_DEFAULT_SECRETS.includes(secret) || PLACEHOLDER.test(secret)) return "is a known default or a placeholder";
  if (Buffer.byteLength(secret, "utf8") < MIN_SECRET_BYTES) return `is shorter than ${MIN_SECRET_BYTES} bytes`;
  return null;
}

/** The variables that may be read from a file named by NAME_FILE (docs/decisions/187). */
export const SECRET_VARIABLES = ["SESSION_SECRET", "PLANNING_API_KEY", "REDIS_URL"] as const;

/** Whether a URL's host is this machine: a connection to it never crosses a network. */
export function isLoopbackUrl(url: string): boolean {
  const host = new URL(url).hostname.toLowerCase();
  return host === "localhost" || host === "[::1]" || /^127(?:\.\d{1,3}){3}$/.test(host);
}

const EnvSchema = z
  .object({
    NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
    PLANNING_API_URL: z.string().url().default("http://127.0.0.1:3100"),
    // The key the portal sends the platform on every call, one of its PLATFORM_CALLER_KEYS (decision 186).
    PLANNING_API_KEY: z.string().min(1).optional(),
    // The operator's word that the network between the portal, the platform and Redis is private and
    // encrypted by other means (a VPN, IPsec, a service mesh): production then allows http:// and redis://.
    PRIVATE_NETWORK_ENCRYPTED: z.enum(["true", "false"]).default("false"),
    SESSION_SECRET: z.string().min(1).optional(),
    // How many reverse proxies in front of the portal may be trusted for X-Forwarded-For.
    TRUST_PROXY_HOPS: z.coerce.number().int().min(0).max(10).default(0),
    // Posts allowed per client address: sign-in per 5 minutes, recovery per 15 (decision 046).
    // Raised only by the journeys, which all come from one address.
    RATE_LIMIT_SIGN_IN: z.coerce.number().int().min(1).max(1_000_000).default(20),
    RATE_LIMIT_RECOVERY: z.coerce.number().int().min(1).max(1_000_000).default(10),
    // Failed sign-ins per username (any address) per 15 minutes before the portal refuses that
    // username: fewer than the platform's lockout (decision 115); as many again for each browser
    // that has signed in as the user, counted apart (decision 173).
    RATE_LIMIT_SIGN_IN_FAILURES: z.coerce.number().int().min(1).max(1_000_000).default(4),
    // Where the instances share their rate limits; unset, each instance counts in its own memory.
    REDIS_URL: z
      .string()
      .url()
      .refine((url) => /^rediss?:\/\//.test(url), "REDIS_URL must be a redis:// or rediss:// URL")
      .optional(),
    PLANNING_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
    // Absolute lifetime of a portal session, whatever the activity.
    SESSION_MAX_AGE_HOURS: z.coerce.number().min(1).max(72).default(12),
    // Cookies are Secure in production unless an operator terminates TLS elsewhere and says so.
    COOKIE_SECURE: z.enum(["true", "false"]).optional(),
    APP_ID: z.string().default("client-online"),
    // pino's levels (docs/decisions/125); unset: debug in development, info otherwise.
    LOG_LEVEL: z.enum(LOG_LEVELS).optional(),
    // spec 000 §1 analytics monitor: one log record per page view (docs/decisions/029).
    ANALYTICS_PAGE_VIEWS: z.enum(["true", "false"]).default("true"),
    // Prometheus metrics on their own port, off unless set; loopback unless told (decision 126).
    METRICS_PORT: z.preprocess(
      (v) => (v === "" ? undefined : v),
      z.coerce.number().int().min(1).max(65_535).optional(),
    ),
    METRICS_HOST: z.string().min(1).default("127.0.0.1"),
    // ASVS V12.4.2 (decision 192): the clamd that scans uploads, a socket path or host:port; `off`
    // (or unset outside production) sends files on unscanned.
    CLAMD_ADDRESS: z.string().optional(),
  })
  .superRefine((env, ctx) => {
    if (env.CLAMD_ADDRESS !== undefined && parseClamdAddress(env.CLAMD_ADDRESS) === undefined)
      ctx.addIssue({
        code: "custom",
        path: ["CLAMD_ADDRESS"],
        message: `expected clamd's socket (an absolute path), host:port, or ${SCANNING_OFF}`,
      });
    if (env.NODE_ENV !== "production") return;
    if (env.CLAMD_ADDRESS === undefined)
      ctx.addIssue({
        code: "custom",
        path: ["CLAMD_ADDRESS"],
        message: `CLAMD_ADDRESS is required in production: clamd's socket or host:port (or ${SCANNING_OFF} to send attachments on unscanned)`,
      });
    // ASVS V1.9.1, V9.2.2 (decision 186): TLS to every component that is not on this machine
    const clearAllowed = env.PRIVATE_NETWORK_ENCRYPTED === "true";
    if (!clearAllowed && env.PLANNING_API_URL.startsWith("http:") && !isLoopbackUrl(env.PLANNING_API_URL))
      ctx.addIssue({
        code: "custom",
        path: ["PLANNING_API_URL"],
        message:
          "production needs an https:// platform unless it is on this machine (or PRIVATE_NETWORK_ENCRYPTED=true)",
      });
    // the URL is never written: it may hold Redis's password
    if (!clearAllowed && env.REDIS_URL?.startsWith("redis:") && !isLoopbackUrl(env.REDIS_URL))
      ctx.addIssue({
        code: "custom",
        path: ["REDIS_URL"],
        message: "production needs rediss:// (TLS) unless Redis is on this machine (or PRIVATE_NETWORK_ENCRYPTED=true)",
      });
    if (!env.PLANNING_API_KEY)
      ctx.addIssue({
        code: "custom",
        path: ["PLANNING_API_KEY"],
        message: "PLANNING_API_KEY is required in production (one of the platform's PLATFORM_CALLER_KEYS)",
      });
    else if (weakness(env.PLANNING_API_KEY))
      ctx.addIssue({
        code: "custom",
        path: ["PLANNING_API_KEY"],
        message: `the key ${weakness(env.PLANNING_API_KEY)}: production needs a random key of at least ${MIN_SECRET_BYTES} bytes (e.g. \`openssl rand -hex 32\`)`,
      });
    if (!env.SESSION_SECRET) {
      ctx.addIssue({ code: "custom", path: ["SESSION_SECRET"], message: "SESSION_SECRET is required in production" });
      return;
    }
    // Each secret of a rotation list is checked: an old one still opens cookies.
    const secrets = secretsOf(env.SESSION_SECRET);
    if (secrets.length === 0)
      ctx.addIssue({ code: "custom", path: ["SESSION_SECRET"], message: "SESSION_SECRET is required in production" });
    secrets.forEach((secret, i) => {
      const problem = weakness(secret);
      if (!problem) return;
      const which = secrets.length > 1 ? `secret ${i + 1} of ${secrets.length}` : "the secret";
      ctx.addIssue({
        code: "custom",
        path: ["SESSION_SECRET"],
        message: `${which} ${problem}: production needs random secrets of at least ${MIN_SECRET_BYTES} bytes (e.g. \`openssl rand -hex 32\`)`,
      });
    });
  });

export type Env = {
  nodeEnv: "development" | "production" | "test";
  planningApiUrl: string;
  /** What the portal sends in X-Caller-Key (decision 186), or null: nothing (a platform that asks none, outside production). */
  planningApiKey: string | null;
  sessionSecrets: string[];
  trustProxyHops: number;
  rateLimitSignIn: number;
  rateLimitRecovery: number;
  rateLimitSignInFailures: number;
  redisUrl: string | null;
  planningTimeoutMs: number;
  sessionMaxAgeMs: number;
  cookieSecure: boolean;
  appId: string;
  logLevel: LogLevel;
  analyticsPageViews: boolean;
  /** Where the metrics are served (GET /metrics), or null: none. */
  metrics: { port: number; host: string } | null;
  /** The clamd that scans uploaded files (decision 192), or null: they are not scanned. */
  clamd: ClamdAddress | null;
};

/** The configuration in `source`; a secret may come from the file its NAME_FILE names (`read`, the file system's by default). */
export function parseEnv(source: Record<string, string | undefined>, read?: ReadSecretFile): Env {
  let withFiles: Record<string, string | undefined>;
  try {
    withFiles = withSecretFiles(source, SECRET_VARIABLES, read);
  } catch (error) {
    throw new Error(`Invalid configuration: ${(error as Error).message}`);
  }
  const parsed = EnvSchema.safeParse(withFiles);
  if (!parsed.success) {
    const details = parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ");
    throw new Error(`Invalid configuration: ${details}`);
  }
  const e = parsed.data;
  // A development secret is generated per process: sessions do not survive a restart, which is
  // what a developer expects; production must share one secret across instances.
  const sessionSecrets = secretsOf(e.SESSION_SECRET ?? randomBytes(32).toString("hex"));
  return {
    nodeEnv: e.NODE_ENV,
    planningApiUrl: e.PLANNING_API_URL.replace(/\/+$/, ""),
    planningApiKey: e.PLANNING_API_KEY ?? null,
    sessionSecrets,
    trustProxyHops: e.TRUST_PROXY_HOPS,
    rateLimitSignIn: e.RATE_LIMIT_SIGN_IN,
    rateLimitRecovery: e.RATE_LIMIT_RECOVERY,
    rateLimitSignInFailures: e.RATE_LIMIT_SIGN_IN_FAILURES,
    redisUrl: e.REDIS_URL ?? null,
    planningTimeoutMs: e.PLANNING_TIMEOUT_MS,
    sessionMaxAgeMs: e.SESSION_MAX_AGE_HOURS * 3_600_000,
    cookieSecure: e.COOKIE_SECURE ? e.COOKIE_SECURE === "true" : e.NODE_ENV === "production",
    appId: e.APP_ID,
    logLevel: e.LOG_LEVEL ?? (e.NODE_ENV === "development" ? "debug" : "info"),
    analyticsPageViews: e.ANALYTICS_PAGE_VIEWS === "true",
    metrics: e.METRICS_PORT === undefined ? null : { port: e.METRICS_PORT, host: e.METRICS_HOST },
    clamd: e.CLAMD_ADDRESS === undefined ? null : (parseClamdAddress(e.CLAMD_ADDRESS) ?? null),
  };
}

/**
 * The configuration of this process. A refused one stops the portal at start with one clear line
 * (what is wrong, never a secret's value) rather than a stack trace.
 */
function loadEnv(): Env {
  try {
    return parseEnv(process.env);
  } catch (error) {
    if (process.env.VITEST) throw error;
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`${JSON.stringify({ time: new Date().toISOString(), level: "error", message })}\n`);
    process.exit(1);
  }
}

export const env: Env = loadEnv();
