import { z } from "zod";

export const DEFAULT_PLATFORM_VERSION = "22.9.240";

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
});

export type PlatformEnv = {
  port: number;
  host: string;
  dbFile: string;
  nodeEnv: "development" | "production" | "test";
  /** Maintenance switched on at start (the site setting maintenanceMode can switch it on too). */
  maintenance?: boolean;
  /** Defaults to DEFAULT_PLATFORM_VERSION. */
  version?: string;
};

/** Reads the environment once (conventions: validated with zod at start, then passed around). */
export function readEnv(source: NodeJS.ProcessEnv): PlatformEnv {
  const parsed = EnvSchema.safeParse(source);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ");
    throw new Error(`invalid platform environment: ${issues}`);
  }
  const e = parsed.data;
  return {
    port: e.PLATFORM_PORT,
    host: e.PLATFORM_HOST,
    dbFile: e.PLATFORM_DB,
    nodeEnv: e.NODE_ENV,
    maintenance: e.PLATFORM_MAINTENANCE === "on",
    version: e.PLATFORM_VERSION,
  };
}

export const platformVersion = (env: PlatformEnv) => env.version ?? DEFAULT_PLATFORM_VERSION;
