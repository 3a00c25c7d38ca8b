import { z } from "zod";
import { DEVELOPMENT_PEPPER_KEY } from "./lib/password";
import { DEVELOPMENT_SECRET_KEY } from "./lib/secrets-at-rest";
import { type ClamdAddress, parseClamdAddress, SCANNING_OFF } from "./lib/virus-scan";
import { type ReadSecretFile, withSecretFiles } from "./lib/secret-files";

export const DEFAULT_PLATFORM_VERSION = "22.9.240";

export type PasskeyConfig = { rpId: string; rpName: string; origins: string[] };

export const DEFAULT_PASSKEYS: PasskeyConfig = {
  rpId: "localhost",
  rpName: "Client Online",
  origins: ["http://localhost:3000"],
};

export const DEFAULT_LOCKOUT_MINUTES = 30;

/** ASVS V12.1.3: what one client may attach in 24 hours (docs/decisions/165). */
export type AttachmentAllowance = { files: number; bytes: number };
export const DEFAULT_ATTACHMENT_ALLOWANCE: AttachmentAllowance = { files: 50, bytes: 100_000_000 };

/** ASVS V8.3.8: how long the outbox keeps a message, and how often the retention job runs (docs/decisions/184). */
export type Retention = { outboxDays: number; reportDays: number; intervalMinutes: number };
export const DEFAULT_RETENTION: Retention = { outboxDays: 30, reportDays: 7, intervalMinutes: 60 };

/** A Host header's form: a name or IPv4 address, or an IPv6 address in brackets, and an optional port. */
export const HOST_PATTERN = /^(?:[a-z0-9](?:[a-z0-9.-]*[a-z0-9])?|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i;

/** The levels of PLATFORM_LOG_LEVEL (pino's), from nothing written to everything. */
export const PLATFORM_LOG_LEVELS = ["silent", "fatal", "error", "warn", "info", "debug", "trace"] as const;
export type PlatformLogLevel = (typeof PLATFORM_LOG_LEVELS)[number];

/** A comma-separated list of keys, each trimmed; undefined when unset. */
const keyList = z
  .string()
  .optional()
  .transform((v) =>
    v === undefined
      ? undefined
      : v
          .split(",")
          .map((k) => k.trim())
          .filter(Boolean),
  );

const EnvSchema = z.object({
  PLATFORM_PORT: z.coerce.number().int().min(0).max(65535).default(3100),
  PLATFORM_HOST: z.string().min(1).default("127.0.0.1"),
  PLATFORM_DB: z.string().min(1).default("./data/platform.sqlite"),
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  /** spec 000 §4 maintenance: an operator starts the platform with PLATFORM_MAINTENANCE=on. */
  PLATFORM_MAINTENANCE: z.enum(["on", "off"]).default("off"),
  /** The version GET site reports (major.minor.build); some rules depend on it (spec 002 §5). */
  PLATFORM_VERSION: z
    .string()
    .regex(/^\d+\.\d+\.\d+$/, "expected major.minor.build")
    .default(DEFAULT_PLATFORM_VERSION),
  /** Passkeys (docs/platform-api.md "Passkeys"): the relying party's id (a domain) and name. */
  PASSKEY_RP_ID: z.string().min(1).default(DEFAULT_PASSKEYS.rpId),
  PASSKEY_RP_NAME: z.string().min(1).default(DEFAULT_PASSKEYS.rpName),
  /** The origins (scheme://host[:port]) the portal's pages are served from, comma-separated. */
  PASSKEY_ORIGINS: z
    .string()
    .default(DEFAULT_PASSKEYS.origins.join(","))
    .transform((v) =>
      v
        .split(",")
        .map((o) => o.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.string().url()).min(1)),
  /**
   * The host names the platform answers (docs/decisions/114), comma-separated: `name` (any port) or
   * `name:port`; IPv6 in brackets. Unset: localhost, 127.0.0.1 and [::1] outside production, and no
   * check in production.
   */
  PLATFORM_ALLOWED_HOSTS: z
    .string()
    .optional()
    .transform((v) =>
      v === undefined
        ? undefined
        : v
            .split(",")
            .map((h) => h.trim().toLowerCase())
            .filter(Boolean),
    )
    .pipe(z.array(z.string().regex(HOST_PATTERN, "expected name or name:port, comma-separated")).min(1).optional()),
  /** How long five wrong secrets lock an account, in minutes (docs/decisions/114). */
  PLATFORM_LOCKOUT_MINUTES: z.coerce.number().int().min(1).max(525_600).default(DEFAULT_LOCKOUT_MINUTES),
  /** The attachments one client may store in 24 hours: files, and bytes (docs/decisions/165). */
  PLATFORM_ATTACHMENTS_PER_DAY: z.coerce.number().int().min(1).max(100_000).default(DEFAULT_ATTACHMENT_ALLOWANCE.files),
  PLATFORM_ATTACHMENT_BYTES_PER_DAY: z.coerce
    .number()
    .int()
    .min(10_000_000)
    .max(1_000_000_000_000)
    .default(DEFAULT_ATTACHMENT_ALLOWANCE.bytes),
  /** How much the platform logs (docs/decisions/125); unset: info, or error only when NODE_ENV=test. */
  PLATFORM_LOG_LEVEL: z.enum(PLATFORM_LOG_LEVELS).optional(),
  /** Prometheus metrics (docs/decisions/126): their own port, off unless set; loopback unless told. */
  PLATFORM_METRICS_PORT: z.preprocess(
    (v) => (v === "" ? undefined : v),
    z.coerce.number().int().min(1).max(65535).optional(),
  ),
  PLATFORM_METRICS_HOST: z.string().min(1).default("127.0.0.1"),
  /**
   * The keys that seal secrets at rest (docs/decisions/172), comma-separated: the first seals, all
   * open. Required in production; elsewhere the public development key when unset.
   */
  PLATFORM_SECRET_KEYS: keyList,
  /**
   * The pepper of password and security-answer hashes (docs/decisions/183), comma-separated: the
   * first peppers new hashes, all verify. Required in production; elsewhere the public
   * development pepper when unset.
   */
  PLATFORM_PEPPER_KEYS: keyList,
  /**
   * The development endpoints (/dev/*: the outbox with every code, unlock, copies of logins), off
   * unless "true" (issue 39 finding 6, docs/decisions/168); never in production.
   */
  PLATFORM_DEV_ENDPOINTS: z.enum(["true", "false"]).default("false"),
  /**
   * ASVS V12.4.2 (docs/decisions/192): the clamd that scans uploaded attachments, clamd's socket
   * (an absolute path) or host:port; `off` stores them unscanned. Required in production; off
   * elsewhere unless set.
   */
  PLATFORM_CLAMD_ADDRESS: z
    .string()
    .optional()
    .refine(
      (v) => v === undefined || parseClamdAddress(v) !== undefined,
      `expected clamd's socket (an absolute path), host:port, or ${SCANNING_OFF}`,
    ),
  /**
   * The demo data set (its logins share a published password) seeded into an empty database:
   * unset, outside production only; in production only when "true" (ASVS V2.5.4, V14.2.2;
   * docs/decisions/182).
   */
  PLATFORM_DEMO_DATA: z.enum(["true", "false"]).optional(),
  /** How long the outbox keeps a message, in days (docs/decisions/184). */
  PLATFORM_OUTBOX_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(DEFAULT_RETENTION.outboxDays),
  /** Days a finished report (its PDF: the client's holdings and values) is kept after it finished (docs/decisions/184). */
  PLATFORM_REPORT_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(DEFAULT_RETENTION.reportDays),
  /** How often the retention job runs, in minutes (docs/decisions/184). */
  PLATFORM_PURGE_INTERVAL_MINUTES: z.coerce
    .number()
    .int()
    .min(1)
    .max(10_080)
    .default(DEFAULT_RETENTION.intervalMinutes),
  /**
   * The keys a caller must send in X-Caller-Key (docs/decisions/186), comma-separated: any one
   * opens. Required in production; elsewhere unset means no caller is asked for one.
   */
  PLATFORM_CALLER_KEYS: keyList,
  /**
   * The keys of the database file's encryption (docs/decisions/188), comma-separated: the first
   * encrypts, the others open a file being rotated to it. Required in production; elsewhere unset
   * means a plain file.
   */
  PLATFORM_DB_KEYS: keyList,
});

/** The variables that may be read from a file named by NAME_FILE (docs/decisions/187). */
export const PLATFORM_SECRET_VARIABLES = [
  "PLATFORM_SECRET_KEYS",
  "PLATFORM_PEPPER_KEYS",
  "PLATFORM_CALLER_KEYS",
  "PLATFORM_DB_KEYS",
] as const;

/** A production key is at least this long: 256 bits for HKDF. */
export const MIN_SECRET_KEY_BYTES = 32;

/** Why the secret keys cannot be used in this environment, or null; a key is named by position, never by value. */
export function secretKeysProblem(
  keys: string[] | undefined,
  nodeEnv: PlatformEnv["nodeEnv"],
  variable: "PLATFORM_SECRET_KEYS" | "PLATFORM_PEPPER_KEYS" = "PLATFORM_SECRET_KEYS",
): string | null {
  if (keys !== undefined && keys.length === 0) return `${variable}: no key in the list`;
  if (nodeEnv !== "production") return null;
  if (keys === undefined) return `${variable}: required in production`;
  const development = variable === "PLATFORM_SECRET_KEYS" ? DEVELOPMENT_SECRET_KEY : DEVELOPMENT_PEPPER_KEY;
  for (const [i, key] of keys.entries()) {
    const which = keys.length > 1 ? `key ${i + 1} of ${keys.length}` : "the key";
    if (key === development) return `${variable}: ${which} is the public development key`;
    if (Buffer.byteLength(key, "utf8") < MIN_SECRET_KEY_BYTES)
      return `${variable}: ${which} is shorter than ${MIN_SECRET_KEY_BYTES} bytes (e.g. \`openssl rand -hex 32\`)`;
  }
  return null;
}

/**
 * Why a list of keys (PLATFORM_CALLER_KEYS, PLATFORM_DB_KEYS) cannot be used in this environment,
 * or null: required in production, each key at least 32 bytes; a key is named by position, never by value.
 */
export function keyListProblem(
  name: string,
  keys: string[] | undefined,
  nodeEnv: PlatformEnv["nodeEnv"],
  requiredWhy: string,
): string | null {
  if (keys !== undefined && keys.length === 0) return `${name}: no key in the list`;
  if (nodeEnv !== "production") return null;
  if (keys === undefined) return `${name}: required in production (${requiredWhy})`;
  for (const [i, key] of keys.entries()) {
    const which = keys.length > 1 ? `key ${i + 1} of ${keys.length}` : "the key";
    if (Buffer.byteLength(key, "utf8") < MIN_SECRET_KEY_BYTES)
      return `${name}: ${which} is shorter than ${MIN_SECRET_KEY_BYTES} bytes (e.g. \`openssl rand -hex 32\`)`;
  }
  return null;
}

export type PlatformEnv = {
  port: number;
  host: string;
  dbFile: string;
  nodeEnv: "development" | "production" | "test";
  /** Maintenance switched on at start (the site setting maintenanceMode can switch it on too). */
  maintenance?: boolean;
  /** Defaults to DEFAULT_PLATFORM_VERSION. */
  version?: string;
  /** The relying party of passkeys; defaults to DEFAULT_PASSKEYS. */
  passkeys?: PasskeyConfig;
  /** The Host names answered (PLATFORM_ALLOWED_HOSTS); undefined: the loopback names outside production. */
  allowedHosts?: string[];
  /** Minutes an account stays locked after five wrong secrets; defaults to DEFAULT_LOCKOUT_MINUTES. */
  lockoutMinutes?: number;
  /** PLATFORM_ATTACHMENTS_PER_DAY and _BYTES_PER_DAY; defaults to DEFAULT_ATTACHMENT_ALLOWANCE. */
  attachmentAllowance?: AttachmentAllowance;
  /** PLATFORM_LOG_LEVEL; undefined: info, or error only when nodeEnv is test (server/lib/logger.ts). */
  logLevel?: PlatformLogLevel;
  /** Where GET /metrics is served (PLATFORM_METRICS_PORT, PLATFORM_METRICS_HOST); undefined: nowhere. */
  metrics?: { port: number; host: string };
  /** PLATFORM_SECRET_KEYS, the first sealing; undefined: the development key (never in production). */
  secretKeys?: string[];
  /** PLATFORM_PEPPER_KEYS, the first peppering new hashes; undefined: the development pepper (never in production). */
  pepperKeys?: string[];
  /** PLATFORM_DEV_ENDPOINTS=true: the /dev/* endpoints answer (never in production); undefined: off. */
  devEndpoints?: boolean;
  /** PLATFORM_CLAMD_ADDRESS: the clamd that scans uploads; undefined or null: not scanned. */
  clamd?: ClamdAddress | null;
  /** PLATFORM_DEMO_DATA: whether an empty database gets the demo data set; undefined: outside production only. */
  demoData?: boolean;
  /** PLATFORM_OUTBOX_RETENTION_DAYS, PLATFORM_REPORT_RETENTION_DAYS and PLATFORM_PURGE_INTERVAL_MINUTES; defaults to DEFAULT_RETENTION. */
  retention?: Retention;
  /** PLATFORM_CALLER_KEYS: a call without one of them in X-Caller-Key is refused; undefined: none asked (never in production). */
  callerKeys?: string[];
  /** PLATFORM_DB_KEYS: the database file's encryption, the first key encrypting; undefined: a plain file (never in production). */
  dbKeys?: string[];
};

/**
 * Reads the environment once (conventions: validated with zod at start, then passed around); a
 * secret may come from the file its NAME_FILE names (`read`, the file system's by default).
 */
export function readEnv(source: NodeJS.ProcessEnv, read?: ReadSecretFile): PlatformEnv {
  let withFiles: Record<string, string | undefined>;
  try {
    withFiles = withSecretFiles(source, PLATFORM_SECRET_VARIABLES, read);
  } catch (error) {
    throw new Error(`invalid platform environment: ${(error as Error).message}`);
  }
  const parsed = EnvSchema.safeParse(withFiles);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ");
    throw new Error(`invalid platform environment: ${issues}`);
  }
  const e = parsed.data;
  const keysProblem = secretKeysProblem(e.PLATFORM_SECRET_KEYS, e.NODE_ENV);
  if (keysProblem) throw new Error(`invalid platform environment: ${keysProblem}`);
  const pepperProblem = secretKeysProblem(e.PLATFORM_PEPPER_KEYS, e.NODE_ENV, "PLATFORM_PEPPER_KEYS");
  if (pepperProblem) throw new Error(`invalid platform environment: ${pepperProblem}`);
  const listProblem =
    keyListProblem("PLATFORM_CALLER_KEYS", e.PLATFORM_CALLER_KEYS, e.NODE_ENV, "the portal's PLANNING_API_KEY") ??
    keyListProblem("PLATFORM_DB_KEYS", e.PLATFORM_DB_KEYS, e.NODE_ENV, "the database file's encryption");
  if (listProblem) throw new Error(`invalid platform environment: ${listProblem}`);
  if (e.PLATFORM_DEV_ENDPOINTS === "true" && e.NODE_ENV === "production") {
    throw new Error("invalid platform environment: PLATFORM_DEV_ENDPOINTS=true is refused in production");
  }
  if (e.PLATFORM_CLAMD_ADDRESS === undefined && e.NODE_ENV === "production") {
    throw new Error(
      `invalid platform environment: PLATFORM_CLAMD_ADDRESS is required in production: clamd's socket or host:port (or ${SCANNING_OFF} to store attachments unscanned)`,
    );
  }
  return {
    port: e.PLATFORM_PORT,
    host: e.PLATFORM_HOST,
    dbFile: e.PLATFORM_DB,
    nodeEnv: e.NODE_ENV,
    maintenance: e.PLATFORM_MAINTENANCE === "on",
    version: e.PLATFORM_VERSION,
    passkeys: { rpId: e.PASSKEY_RP_ID, rpName: e.PASSKEY_RP_NAME, origins: e.PASSKEY_ORIGINS },
    allowedHosts: e.PLATFORM_ALLOWED_HOSTS,
    lockoutMinutes: e.PLATFORM_LOCKOUT_MINUTES,
    attachmentAllowance: { files: e.PLATFORM_ATTACHMENTS_PER_DAY, bytes: e.PLATFORM_ATTACHMENT_BYTES_PER_DAY },
    logLevel: e.PLATFORM_LOG_LEVEL,
    metrics:
      e.PLATFORM_METRICS_PORT === undefined
        ? undefined
        : { port: e.PLATFORM_METRICS_PORT, host: e.PLATFORM_METRICS_HOST },
    secretKeys: e.PLATFORM_SECRET_KEYS,
    pepperKeys: e.PLATFORM_PEPPER_KEYS,
    devEndpoints: e.PLATFORM_DEV_ENDPOINTS === "true",
    clamd: e.PLATFORM_CLAMD_ADDRESS === undefined ? null : (parseClamdAddress(e.PLATFORM_CLAMD_ADDRESS) ?? null),
    demoData: e.PLATFORM_DEMO_DATA === undefined ? undefined : e.PLATFORM_DEMO_DATA === "true",
    retention: {
      outboxDays: e.PLATFORM_OUTBOX_RETENTION_DAYS,
      reportDays: e.PLATFORM_REPORT_RETENTION_DAYS,
      intervalMinutes: e.PLATFORM_PURGE_INTERVAL_MINUTES,
    },
    callerKeys: e.PLATFORM_CALLER_KEYS,
    dbKeys: e.PLATFORM_DB_KEYS,
  };
}

/** Whether the /dev/* endpoints answer: asked for (PLATFORM_DEV_ENDPOINTS=true), and never in production. */
export const devEndpointsOn = (env: PlatformEnv) => env.devEndpoints === true && env.nodeEnv !== "production";

/** Whether an empty database gets the demo data set: as PLATFORM_DEMO_DATA says, else outside production only. */
export const demoDataOn = (env: PlatformEnv) => env.demoData ?? env.nodeEnv !== "production";

export const platformVersion = (env: PlatformEnv) => env.version ?? DEFAULT_PLATFORM_VERSION;

export const passkeyConfig = (env: PlatformEnv) => env.passkeys ?? DEFAULT_PASSKEYS;

export const lockoutMinutes = (env: PlatformEnv) => env.lockoutMinutes ?? DEFAULT_LOCKOUT_MINUTES;

export const attachmentAllowance = (env: PlatformEnv) => env.attachmentAllowance ?? DEFAULT_ATTACHMENT_ALLOWANCE;

export const retentionOf = (env: PlatformEnv) => env.retention ?? DEFAULT_RETENTION;
