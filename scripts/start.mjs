// `npm start`: the planning platform (embedded, with demo data) and the portal, side by side.
// Stops both when either stops or on Ctrl-C.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { formatDemoLogins, readDemoLogins } from "./demo-logins.mjs";
import { PORTAL_NODE_FLAGS, PORTAL_PROCESS_ENV } from "./portal-node-flags.mjs";

const portalPort = process.env.PORT ?? "3000";
const platformPort = process.env.PLATFORM_PORT ?? "3100";
const planningApiUrl = process.env.PLANNING_API_URL ?? `http://127.0.0.1:${platformPort}`;
const embedded = !process.env.PLANNING_API_URL;

const children = [];
function run(name, command, args, env) {
  const child = spawn(command, args, { stdio: "inherit", env: { ...process.env, ...env } });
  child.on("exit", (code, signal) => {
    console.log(`${name} stopped (${signal ?? code})`);
    shutdown(code ?? 1);
  });
  children.push(child);
  return child;
}

let stopping = false;
function shutdown(code) {
  if (stopping) return;
  stopping = true;
  for (const child of children) if (child.exitCode === null) child.kill("SIGTERM");
  setTimeout(() => process.exit(code), 500).unref();
}
process.on("SIGINT", () => shutdown(0));
process.on("SIGTERM", () => shutdown(0));

async function waitFor(url, seconds, headers = {}) {
  for (let i = 0; i < seconds * 4; i++) {
    try {
      const res = await fetch(url, { headers });
      if (res.ok) return true;
    } catch {
      // not up yet
    }
    await sleep(250);
  }
  return false;
}

// Uploads are scanned by clamd when CLAMD_ADDRESS names one (its socket or host:port; the embedded
// platform takes it too unless PLATFORM_CLAMD_ADDRESS is set), and not otherwise: the demo runs on
// a machine without ClamAV, and says so (docs/decisions/192).
const clamdAddress = process.env.CLAMD_ADDRESS || "off";
if (clamdAddress === "off") {
  console.log(
    "CLAMD_ADDRESS is not set: attachments are not scanned for viruses (set it to clamd's socket or host:port to scan them).",
  );
}
// The embedded platform answers only this portal (docs/decisions/186): with a key for this run unless
// PLANNING_API_KEY (or its file, decision 187) is set; another platform (PLANNING_API_URL) gets the
// portal's key of the environment.
const keyFile = process.env.PLANNING_API_KEY_FILE;
const callerKey = embedded
  ? process.env.PLANNING_API_KEY ||
    (keyFile ? readFileSync(keyFile, "utf8").replace(/[\r\n]+$/, "") : randomBytes(32).toString("hex"))
  : undefined;

if (embedded) {
  run("platform", process.execPath, ["--import", "tsx", "server/main.ts"], {
    PLATFORM_PORT: platformPort,
    NODE_ENV: process.env.PLATFORM_NODE_ENV ?? "development",
    PLATFORM_CLAMD_ADDRESS: process.env.PLATFORM_CLAMD_ADDRESS || clamdAddress,
    // the demo's logins (docs/decisions/182: in production only when asked for, as here)
    PLATFORM_DEMO_DATA: process.env.PLATFORM_DEMO_DATA ?? "true",
    PLATFORM_CALLER_KEYS: callerKey,
  });
  if (!(await waitFor(`${planningApiUrl}/xplan/health`, 60, { "X-Caller-Key": callerKey }))) {
    console.error("The planning platform did not start.");
    shutdown(1);
  }
}

// The demo's portal runs in production mode, which refuses a weak or public secret (docs/decisions/113):
// without SESSION_SECRET a random one is made for this run only.
const sessionSecret = process.env.SESSION_SECRET_FILE
  ? undefined
  : process.env.SESSION_SECRET || randomBytes(32).toString("hex");
if (!process.env.SESSION_SECRET && !process.env.SESSION_SECRET_FILE) {
  console.log("SESSION_SECRET is not set: a random one is used for this run, so sign-ins do not survive a restart.");
}

// The portal's own server (docs/decisions/026); it reads the build of REMIX_BUILD_DIR, `build` by default.
run("portal", process.execPath, [...PORTAL_NODE_FLAGS, "scripts/portal-server.mjs"], {
  ...PORTAL_PROCESS_ENV,
  PORT: portalPort,
  PLANNING_API_URL: planningApiUrl,
  NODE_ENV: process.env.NODE_ENV ?? "production",
  ...(sessionSecret ? { SESSION_SECRET: sessionSecret } : {}),
  COOKIE_SECURE: process.env.COOKIE_SECURE ?? "false",
  CLAMD_ADDRESS: clamdAddress,
  ...(callerKey && !keyFile ? { PLANNING_API_KEY: callerKey } : {}),
});

if (await waitFor(`http://127.0.0.1:${portalPort}/healthz`, 60)) {
  // the README's table of demo logins, read from the README (docs/decisions/121)
  console.log(`
Client Online is running: http://localhost:${portalPort}/login
  Planning platform: ${planningApiUrl}
${formatDemoLogins(readDemoLogins())}
`);
}
