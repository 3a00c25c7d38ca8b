// Starts a fresh platform (temporary database) and the built portal on free ports, for the
// journeys and the benchmark. Optionally a second portal whose platform is down.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { setTimeout as sleep } from "node:timers/promises";
import { PORTAL_NODE_FLAGS, PORTAL_PROCESS_ENV } from "./portal-node-flags.mjs";

export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Waits until `url` answers 2xx; `headers`, e.g. the platform's caller key (CALLER_KEY_HEADER). */
export async function waitFor(url, seconds, headers = {}) {
  for (let i = 0; i < seconds * 4; i++) {
    try {
      const res = await fetch(url, { headers });
      if (res.ok) return;
    } catch {
      // not up yet
    }
    await sleep(250);
  }
  throw new Error(`${url} did not answer within ${seconds}s`);
}

/**
 * The CPU seconds a process has used so far (user and system, Linux's /proc; 100 ticks a second,
 * as Linux reports them to every process), or null where there is no /proc.
 */
export function cpuSeconds(pid) {
  const file = `/proc/${pid}/stat`;
  if (!existsSync(file)) return null;
  // the fields after the command's name, which is in brackets and may hold spaces
  const stat = readFileSync(file, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** The header the platform authenticates its caller by (docs/decisions/186). */
export const CALLER_KEY_HEADER = "X-Caller-Key";

/** A key for one run: the platform's PLATFORM_CALLER_KEYS and its portals' PLANNING_API_KEY. */
export const newCallerKey = () => randomBytes(32).toString("hex");

/**
 * The platform as the journeys run it: a fresh database in `dir`, passkeys for the portals' ports,
 * uploads scanned by the clamd at `clamdAddress` (docs/decisions/192), or not (`off`), answering
 * only callers that send `callerKey` (the portals' PLANNING_API_KEY, decision 186).
 */
export function platformCommand({ dir, port, portalPorts, clamdAddress = "off", callerKey }) {
  return {
    args: ["--import", "tsx", "server/main.ts"],
    env: {
      PLATFORM_CALLER_KEYS: callerKey,
      PLATFORM_PORT: String(port),
      PLATFORM_DB: join(dir, "platform.sqlite"),
      NODE_ENV: "test",
      // The journeys, the benchmarks and the scale test read codes and switch maintenance through
      // /dev/*, off unless asked for (docs/decisions/168).
      PLATFORM_DEV_ENDPOINTS: "true",
      // the demo data set the journeys sign in with (docs/decisions/182), whatever NODE_ENV says
      PLATFORM_DEMO_DATA: "true",
      // Passkeys are bound to the portal's origin (docs/platform-api.md "Passkeys"): the pages are
      // served from localhost on these ports.
      PASSKEY_RP_ID: "localhost",
      PASSKEY_ORIGINS: portalPorts.map((p) => `http://localhost:${p}`).join(","),
      PLATFORM_CLAMD_ADDRESS: clamdAddress,
    },
  };
}

// Every journey comes from 127.0.0.1, and the suite makes far more sign-in and recovery posts than
// one address may (docs/decisions/046): the journeys' portal raises the limits, nothing else does.
// The failed sign-ins per username (decision 115) too: several journeys use the same demo users
// at once, and one walks a copy of demo.lockout into the platform's own lockout.
export const JOURNEY_RATE_LIMITS = {
  RATE_LIMIT_SIGN_IN: "100000",
  RATE_LIMIT_RECOVERY: "100000",
  RATE_LIMIT_SIGN_IN_FAILURES: "100000",
};

/** The V8 flags and process environment a checkout's portal runs with: this one's, or those of the checkout in `cwd`. */
async function portalNodeFlagsOf(cwd) {
  if (resolve(cwd) === resolve(import.meta.dirname, "..")) return { flags: PORTAL_NODE_FLAGS, env: PORTAL_PROCESS_ENV };
  const flags = await import(pathToFileURL(join(cwd, "scripts/portal-node-flags.mjs")).href);
  return { flags: flags.PORTAL_NODE_FLAGS, env: flags.PORTAL_PROCESS_ENV ?? {} };
}

// CPU_PROFILE_DIR=dir: both processes write a CPU profile there when they stop (node --cpu-prof),
// to open in Chrome's DevTools or speedscope (docs/decisions/122).
const profile = process.env.CPU_PROFILE_DIR ? ["--cpu-prof", `--cpu-prof-dir=${process.env.CPU_PROFILE_DIR}`] : [];

/** The portals' environment: production, a secret of the run's own, the scanner (or `off`), `extra` on top. */
function portalEnvOf(processEnv, clamdAddress, extra) {
  return {
    ...processEnv,
    NODE_ENV: "production",
    SESSION_SECRET: randomBytes(32).toString("hex"),
    COOKIE_SECURE: "false",
    LOG_LEVEL: "silent",
    PLANNING_TIMEOUT_MS: "3000",
    // production asks for clamd's address or `off` (docs/decisions/192)
    CLAMD_ADDRESS: clamdAddress,
    ...extra,
  };
}

/**
 * `portalEnv` adds to the portals' environment (e.g. JOURNEY_RATE_LIMITS); `metrics` serves both
 * processes' Prometheus metrics on ports of their own (docs/decisions/126); `cwd` runs another
 * checkout's platform and built portal (`npm run bench:cpu`'s baseline), this one's by default;
 * `clamdAddress` is the clamd both scan uploads with (docs/decisions/192), `off` by default.
 */
export async function startServers(options = {}) {
  const { deadPortal = false, portalEnv: extraPortalEnv = {}, metrics = false, cwd = process.cwd() } = options;
  const clamdAddress = options.clamdAddress ?? "off";
  const dir = mkdtempSync(join(tmpdir(), "client-online-"));
  const ports = await Promise.all(Array.from({ length: 4 }, () => freePort()));
  const [platformPort, portalPort, deadPortalPort, deadPlatformPort] = ports;
  const [platformMetricsPort, portalMetricsPort] = metrics ? await Promise.all([freePort(), freePort()]) : [];
  const children = [];
  const start = (args, env) => {
    const child = spawn(process.execPath, [...profile, ...args], {
      cwd,
      stdio: ["ignore", "ignore", "inherit"],
      env: { ...process.env, ...env },
    });
    children.push(child);
  };
  const stop = () => {
    for (const child of children) if (child.exitCode === null) child.kill("SIGTERM");
    rmSync(dir, { recursive: true, force: true });
  };
  const callerKey = newCallerKey(); // the portals' key to the platform, for this run (decision 186)
  try {
    const platform = platformCommand({
      dir,
      port: platformPort,
      portalPorts: [portalPort, deadPortalPort],
      clamdAddress,
      callerKey,
    });
    start(
      platform.args,
      metrics ? { ...platform.env, PLATFORM_METRICS_PORT: String(platformMetricsPort) } : platform.env,
    );
    // The portal's own server reads the build of REMIX_BUILD_DIR (inherited), `build` by default,
    // with the heap limits of its checkout (another one's, for a benchmark's baseline).
    const { flags, env: processEnv } = await portalNodeFlagsOf(cwd);
    const portalEnv = portalEnvOf(processEnv, clamdAddress, { PLANNING_API_KEY: callerKey, ...extraPortalEnv });
    const portal = "scripts/portal-server.mjs";
    start([...flags, portal], {
      ...portalEnv,
      PORT: String(portalPort),
      PLANNING_API_URL: `http://127.0.0.1:${platformPort}`,
      ...(metrics ? { METRICS_PORT: String(portalMetricsPort) } : {}),
    });
    if (deadPortal) {
      start([...flags, portal], {
        ...portalEnv,
        PORT: String(deadPortalPort),
        PLANNING_API_URL: `http://127.0.0.1:${deadPlatformPort}`,
      });
    }
    await Promise.all([
      waitFor(`http://127.0.0.1:${platformPort}/xplan/health`, 60, { [CALLER_KEY_HEADER]: callerKey }),
      waitFor(`http://127.0.0.1:${portalPort}/healthz`, 60),
      deadPortal ? waitFor(`http://127.0.0.1:${deadPortalPort}/healthz`, 60) : null,
      metrics ? waitFor(`http://127.0.0.1:${platformMetricsPort}/metrics`, 60) : null,
      metrics ? waitFor(`http://127.0.0.1:${portalMetricsPort}/metrics`, 60) : null,
    ]);
  } catch (error) {
    stop();
    throw error;
  }
  return {
    portalUrl: `http://localhost:${portalPort}`,
    platformUrl: `http://127.0.0.1:${platformPort}`,
    callerKey, // what a tool or journey that calls the platform itself sends in CALLER_KEY_HEADER
    deadPortalUrl: deadPortal ? `http://localhost:${deadPortalPort}` : null,
    // GET these for each process's Prometheus metrics (with `metrics`).
    portalMetricsUrl: metrics ? `http://127.0.0.1:${portalMetricsPort}/metrics` : null,
    platformMetricsUrl: metrics ? `http://127.0.0.1:${platformMetricsPort}/metrics` : null,
    // The platform's database file, for journeys that run their own platform and set it up.
    platformDb: join(dir, "platform.sqlite"),
    // The processes, for measuring their memory (`npm run load`).
    pids: { platform: children[0].pid, portal: children[1].pid },
    stop,
  };
}
