// `npm run dev`: the planning platform and the portal for development, side by side
// (docs/decisions/152). The platform (embedded, with the demo data of data/platform.sqlite, as
// `npm start` runs it) restarts when a file under server/ changes (`node --watch-path=server`).
// `remix dev --manual` rebuilds the portal when a file under app/ changes; the portal's server
// (scripts/portal-dev-server.mjs) takes each new build without restarting, and the open pages
// update or reload themselves. Ctrl-C stops both, and everything they started.
//
// Environment: PORT (3000) and PLATFORM_PORT (3100), PLANNING_API_URL (another platform: then only
// the portal is started), SESSION_SECRET (a random one per run when unset), as `npm start`.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { formatDemoLogins, readDemoLogins } from "./demo-logins.mjs";
import { CALLER_KEY_HEADER, waitFor } from "./servers.mjs";

const portalPort = process.env.PORT ?? "3000";
const platformPort = process.env.PLATFORM_PORT ?? "3100";
const planningApiUrl = process.env.PLANNING_API_URL ?? `http://127.0.0.1:${platformPort}`;
const embedded = !process.env.PLANNING_API_URL;
// The development build lives apart from `npm run build`'s (build/), which the journeys and
// `npm start` run: `remix dev` empties its assets folder at each rebuild.
const DEV_BUILD_DIR = ".builds/dev";
// What the processes of one side get to finish in, after Ctrl-C (the portal drains for 10 s).
const STOP_MS = 15_000;

/** Whether nothing listens on `port` yet. */
function portFree(port) {
  return new Promise((resolve) => {
    const server = createServer();
    server.once("error", () => resolve(false));
    server.listen(Number(port), () => server.close(() => resolve(true)));
  });
}

for (const [name, port] of [["portal", portalPort], ...(embedded ? [["platform", platformPort]] : [])]) {
  if (!(await portFree(port))) {
    console.error(`Port ${port} for the ${name} is taken (is \`npm start\` or \`npm run dev\` running?).`);
    process.exit(1);
  }
}

// Each side runs in a process group of its own (detached), so that stopping it reaches what it
// started too: the platform's watcher and the platform; remix dev, its compiler and the portal.
const children = [];
function run(name, args, env) {
  const child = spawn(process.execPath, args, {
    stdio: ["ignore", "inherit", "inherit"],
    env: { ...process.env, ...env },
    detached: true,
  });
  child.on("exit", (code, signal) => {
    console.log(`${name} stopped (${signal ?? code})`);
    void shutdown(code ?? 1);
  });
  children.push(child);
}

/** @param {NodeJS.Signals | 0} signal */
function signalGroup(child, signal) {
  try {
    process.kill(-child.pid, signal);
    return true;
  } catch {
    return false;
  }
}

let stopping = false;
async function shutdown(code) {
  if (stopping) return;
  stopping = true;
  for (const child of children) signalGroup(child, "SIGTERM");
  const deadline = Date.now() + STOP_MS;
  while (children.some((child) => signalGroup(child, 0)) && Date.now() < deadline) await sleep(100);
  for (const child of children) signalGroup(child, "SIGKILL");
  process.exit(code);
}
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) process.on(signal, () => void shutdown(0));

// The embedded platform answers only this portal (docs/decisions/186), as with `npm start`.
const callerKey = embedded ? process.env.PLANNING_API_KEY || randomBytes(32).toString("hex") : undefined;

if (embedded) {
  run("platform", ["--watch-path=server", "--watch-preserve-output", "--import", "tsx", "server/main.ts"], {
    PLATFORM_PORT: platformPort,
    NODE_ENV: process.env.PLATFORM_NODE_ENV ?? "development",
    // the portal's scanner for the platform too, as `npm start` does (docs/decisions/192)
    ...(process.env.CLAMD_ADDRESS && !process.env.PLATFORM_CLAMD_ADDRESS
      ? { PLATFORM_CLAMD_ADDRESS: process.env.CLAMD_ADDRESS }
      : {}),
    // the demo's logins (docs/decisions/182: in production only when asked for, as here)
    PLATFORM_DEMO_DATA: process.env.PLATFORM_DEMO_DATA ?? "true",
    PLATFORM_CALLER_KEYS: callerKey,
  });
}

// The portal's server is started by remix dev, with NODE_ENV=development, this environment and
// REMIX_DEV_ORIGIN (where the browser's live reload connects). One secret for the whole run: the
// server imports each build afresh, and a secret made by the build would sign everyone out.
const remix = createRequire(import.meta.url).resolve("@remix-run/dev/dist/cli.js");
const portalServer = `${process.execPath.replaceAll(" ", "\\ ")} scripts/portal-dev-server.mjs`;
run("portal", [remix, "dev", "--manual", "--command", portalServer], {
  PORT: portalPort,
  PLANNING_API_URL: planningApiUrl,
  REMIX_BUILD_DIR: DEV_BUILD_DIR,
  SESSION_SECRET: process.env.SESSION_SECRET || randomBytes(32).toString("hex"),
  ...(callerKey ? { PLANNING_API_KEY: callerKey } : {}),
});

try {
  await Promise.all([
    embedded ? waitFor(`${planningApiUrl}/xplan/health`, 60, { [CALLER_KEY_HEADER]: callerKey }) : null,
    // the first build takes a while
    waitFor(`http://127.0.0.1:${portalPort}/healthz`, 600),
  ]);
} catch (error) {
  console.error(`${error.message}: see the lines above.`);
  await shutdown(1);
}
// the README's table of demo logins, read from the README (docs/decisions/121)
if (!stopping) {
  console.log(`
Client Online is running for development: http://localhost:${portalPort}/login
  Planning platform: ${planningApiUrl}${embedded ? " (restarts when a file under server/ changes)" : ""}
  The portal rebuilds when a file under app/ changes, and its open pages follow. Ctrl-C stops both.
${formatDemoLogins(readDemoLogins())}
`);
}
