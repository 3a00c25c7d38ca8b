import { env } from "./env.server";

// One JSON line per event on stdout/stderr, for operators' log collectors.
type Fields = Record<string, unknown>;

function write(level: "debug" | "info" | "warn" | "error", message: string, fields: Fields = {}) {
  if (env.logLevel === "silent") return;
  if (level === "debug" && env.nodeEnv !== "development") return;
  if ((level === "info" || level === "warn") && env.logLevel === "error") return;
  const line = JSON.stringify({ time: new Date().toISOString(), level, message, ...fields });
  if (level === "error" || level === "warn") process.stderr.write(`${line}\n`);
  else process.stdout.write(`${line}\n`);
}

export const logger = {
  debug: (message: string, fields?: Fields) => write("debug", message, fields),
  info: (message: string, fields?: Fields) => write("info", message, fields),
  /** A refusal of a request (too large, malformed, over a limit): the caller's doing, not a fault of the portal. */
  warn: (message: string, fields?: Fields) => write("warn", message, fields),
  error: (message: string, fields?: Fields) => write("error", message, fields),
};
