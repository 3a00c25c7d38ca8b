// `npm run test:e2e`: the Playwright journeys against a fresh platform and the built portal, plus a
// second portal whose platform is down (scripts/servers.mjs).
import { spawn } from "node:child_process";
import { startClamd } from "./clamd.mjs";
import { cpuSeconds, JOURNEY_RATE_LIMITS, startServers } from "./servers.mjs";

let servers;
let clamd;
let code = 1;
process.on("SIGINT", () => {
  servers?.stop();
  clamd?.stop();
  process.exit(130);
});
try {
  // the portal and the platform scan every upload with a clamd of the run's own, as in production
  // (docs/decisions/192); a machine without clamd fails here, loudly
  clamd = await startClamd();
  servers = await startServers({
    deadPortal: true,
    portalEnv: JOURNEY_RATE_LIMITS,
    metrics: true,
    clamdAddress: clamd.socket,
  });
  const runner = spawn(process.execPath, ["node_modules/@playwright/test/cli.js", "test", ...process.argv.slice(2)], {
    stdio: "inherit",
    env: {
      ...process.env,
      E2E_BASE_URL: servers.portalUrl,
      E2E_PLATFORM_URL: servers.platformUrl,
      E2E_PLATFORM_CALLER_KEY: servers.callerKey,
      E2E_DEAD_PLATFORM_BASE_URL: servers.deadPortalUrl,
      // e2e/metrics.test.ts scrapes both processes' metrics (docs/decisions/126).
      E2E_PORTAL_METRICS_URL: servers.portalMetricsUrl,
      E2E_PLATFORM_METRICS_URL: servers.platformMetricsUrl,
      // the portals some journeys start themselves scan with it too
      CLAMD_ADDRESS: clamd.socket,
    },
  });
  code = await new Promise((resolve) => runner.on("exit", (c) => resolve(c ?? 1)));
  // What the journeys cost the servers, to compare runs on a busy machine (docs/decisions/151).
  const portal = cpuSeconds(servers.pids.portal);
  const platform = cpuSeconds(servers.pids.platform);
  if (portal !== null && platform !== null)
    console.log(`servers' CPU: portal ${portal.toFixed(1)} s, platform ${platform.toFixed(1)} s`);
} catch (error) {
  console.error(error);
} finally {
  servers?.stop();
  clamd?.stop();
}
process.exit(code);
