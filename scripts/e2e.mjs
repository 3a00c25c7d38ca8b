// `npm run test:e2e`: starts a fresh platform (temporary database) and the built portal on free
// ports, plus a second portal whose platform is down, runs the Playwright journeys, stops them.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";

function freePort() {
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

async function waitFor(url, seconds) {
  for (let i = 0; i < seconds * 4; i++) {
    try {
      const res = await fetch(url);
      if (res.ok) return;
    } catch {
      // not up yet
    }
    await sleep(250);
  }
  throw new Error(`${url} did not answer within ${seconds}s`);
}

const dir = mkdtempSync(join(tmpdir(), "client-online-e2e-"));
const [platformPort, portalPort, deadPortalPort, deadPlatformPort] = await Promise.all([
  freePort(),
  freePort(),
  freePort(),
  freePort(),
]);
const secret = `e2e-${Date.now()}-${Math.random()}`;
const children = [];
const start = (args, env) => {
  const child = spawn(process.execPath, args, {
    stdio: ["ignore", "ignore", "inherit"],
    env: { ...process.env, ...env },
  });
  children.push(child);
  return child;
};
const stopAll = () => {
  for (const child of children) if (child.exitCode === null) child.kill("SIGTERM");
  rmSync(dir, { recursive: true, force: true });
};
process.on("SIGINT", () => {
  stopAll();
  process.exit(130);
});

let code = 1;
try {
  start(["--import", "tsx", "server/main.ts"], {
    PLATFORM_PORT: String(platformPort),
    PLATFORM_DB: join(dir, "platform.sqlite"),
    NODE_ENV: "test",
  });
  const portalEnv = {
    NODE_ENV: "production",
    SESSION_SECRET: secret,
    COOKIE_SECURE: "false",
    LOG_LEVEL: "silent",
    PLANNING_TIMEOUT_MS: "3000",
  };
  const serve = "node_modules/@remix-run/serve/dist/cli.js";
  start([serve, "build/index.js"], { ...portalEnv, PORT: String(portalPort), PLANNING_API_URL: `http://127.0.0.1:${platformPort}` });
  start([serve, "build/index.js"], { ...portalEnv, PORT: String(deadPortalPort), PLANNING_API_URL: `http://127.0.0.1:${deadPlatformPort}` });
  await Promise.all([
    waitFor(`http://127.0.0.1:${platformPort}/xplan/health`, 60),
    waitFor(`http://127.0.0.1:${portalPort}/healthz`, 60),
    waitFor(`http://127.0.0.1:${deadPortalPort}/healthz`, 60),
  ]);
  const runner = spawn(process.execPath, ["node_modules/@playwright/test/cli.js", "test", ...process.argv.slice(2)], {
    stdio: "inherit",
    env: {
      ...process.env,
      E2E_BASE_URL: `http://localhost:${portalPort}`,
      E2E_PLATFORM_URL: `http://127.0.0.1:${platformPort}`,
      E2E_DEAD_PLATFORM_BASE_URL: `http://localhost:${deadPortalPort}`,
    },
  });
  code = await new Promise((resolve) => runner.on("exit", (c) => resolve(c ?? 1)));
} catch (error) {
  console.error(error);
} finally {
  stopAll();
}
process.exit(code);
