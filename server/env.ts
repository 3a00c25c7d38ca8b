import { z } from "zod";

const EnvSchema = z.object({
  PLATFORM_PORT: z.coerce.number().int().min(0).max(65535).default(3100),
  PLATFORM_HOST: z.string().min(1).default("127.0.0.1"),
  PLATFORM_DB: z.string().min(1).default("./data/platform.sqlite"),
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
});

export type PlatformEnv = {
  port: number;
  host: string;
  dbFile: string;
  nodeEnv: "development" | "production" | "test";
};

/** Reads the environment once (conventions: validated with zod at start, then passed around). */
export function readEnv(source: NodeJS.ProcessEnv): PlatformEnv {
  const parsed = EnvSchema.safeParse(source);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ");
    throw new Error(`invalid platform environment: ${issues}`);
  }
  const e = parsed.data;
  return { port: e.PLATFORM_PORT, host: e.PLATFORM_HOST, dbFile: e.PLATFORM_DB, nodeEnv: e.NODE_ENV };
}
