// The planning platform: `tsx server/main.ts` (design: "The two systems in the repository").
import { createApp } from "./app";
import { systemClock } from "./clock";
import { closeDatabase, openDatabase } from "./db/connection";
import { readEnv } from "./env";
import { startMetricsServer } from "./lib/metrics";
import { seedIfEmpty } from "./seed";
import { purgeStaleSessions } from "./sessions";

const env = readEnv(process.env);
const db = openDatabase(env.dbFile);
const started = performance.now();
if (seedIfEmpty(db, systemClock)) {
  console.log(`platform seeded the demo data set in ${Math.round(performance.now() - started)}ms`);
}
purgeStaleSessions(db, systemClock);
if (env.maintenance) console.log("platform in maintenance (PLATFORM_MAINTENANCE=on): xplan/health answers BAD");

const app = createApp({ db, clock: systemClock, env });
// Prometheus metrics on their own port when PLATFORM_METRICS_PORT is set (docs/decisions/126)
if (env.metrics) startMetricsServer(env.metrics);
const server = app.listen(env.port, env.host, () => {
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : env.port;
  console.log(`platform listening on http://${env.host}:${port}`);
});
// an idle keep-alive connection stays open longer than its clients keep it in their pools, so a client
// never sends a request on a connection the platform is closing at that moment (a reset, not an answer)
server.keepAliveTimeout = 65_000;
server.headersTimeout = 66_000;
server.on("error", (error) => {
  console.error("platform could not start", error);
  closeDatabase(db);
  process.exit(1);
});

let stopping = false;
function stop(signal: string) {
  if (stopping) return;
  stopping = true;
  console.log(`platform stopping (${signal})`);
  server.close(() => {
    closeDatabase(db);
    process.exit(0);
  });
  server.closeAllConnections();
  setTimeout(() => process.exit(1), 5000).unref();
}
process.on("SIGTERM", () => stop("SIGTERM"));
process.on("SIGINT", () => stop("SIGINT"));
