// The planning platform: `tsx server/main.ts` (design: "The two systems in the repository").
import { createApp } from "./app";
import { systemClock } from "./clock";
import { closeDatabase, openDatabase } from "./db/connection";
import { readEnv } from "./env";
import { createLogger, logLevelOf } from "./lib/logger";
import { startMetricsServer } from "./lib/metrics";
import { seedOnStart } from "./seed";
import { hashesNotUnderCurrentPepper } from "./domain/accounts";
import { startRetention } from "./domain/retention";
import { DEVELOPMENT_SECRET_KEY, useSecretKeys } from "./lib/secrets-at-rest";
import { describeClamdAddress } from "./lib/virus-scan";
import { DEVELOPMENT_PEPPER_KEY, usePepperKeys } from "./lib/password";

const env = readEnv(process.env);
const log = createLogger(logLevelOf(env));
// the keys of the secrets at rest, before the database is opened: opening seals what is not yet
// sealed with the first key (docs/decisions/172)
useSecretKeys(env.secretKeys ?? [DEVELOPMENT_SECRET_KEY]);
// the pepper of password and answer hashes, before the demo data set is seeded (docs/decisions/183)
usePepperKeys(env.pepperKeys ?? [DEVELOPMENT_PEPPER_KEY]);
// the database file, encrypted with PLATFORM_DB_KEYS when set (docs/decisions/188)
const db = openDatabase(env.dbFile, env.dbKeys, (change) => {
  if (change === "encrypted")
    log.info({ file: env.dbFile }, "platform encrypted its plain database with PLATFORM_DB_KEYS");
  if (change === "rekeyed")
    log.info({ file: env.dbFile }, "platform encrypted its database again with the first key of PLATFORM_DB_KEYS");
});
if (!env.dbKeys)
  log.warn("PLATFORM_DB_KEYS is not set: the database file is not encrypted (development only, decision 188)");
const started = performance.now();
const seeding = seedOnStart(db, systemClock, env);
if (seeding === "seeded") {
  log.info({ ms: Math.round(performance.now() - started) }, "platform seeded the demo data set");
} else if (seeding === "empty") {
  // docs/decisions/182: production gets the demo data set only when PLATFORM_DEMO_DATA=true
  log.warn("platform database is empty; the demo data set is seeded only with PLATFORM_DEMO_DATA=true in production");
}
// what is kept of people only for a while, deleted at start and then periodically (docs/decisions/184)
const stopRetention = startRetention({ db, clock: systemClock, env }, log);
// the hashes a pepper rotation still waits for (docs/decisions/183)
const stale = hashesNotUnderCurrentPepper(db);
if (stale.unknownKey > 0) {
  log.warn(stale, "password or answer hashes under a pepper key not in PLATFORM_PEPPER_KEYS: their owners must reset");
} else if (stale.unpeppered + stale.olderKey > 0) {
  log.info(stale, "password or answer hashes to be peppered again at their owners' next sign-in");
}
// ASVS V12.4.2 (docs/decisions/192): said at every start, so that unscanned uploads are never a surprise
if (env.clamd) log.info({ clamd: describeClamdAddress(env.clamd) }, "attachments are scanned for viruses by clamd");
else log.warn("attachments are not scanned for viruses: PLATFORM_CLAMD_ADDRESS is unset or off");
if (!env.callerKeys)
  log.warn("PLATFORM_CALLER_KEYS is not set: any caller is answered (development only, decision 186)");
if (env.maintenance) log.info("platform in maintenance (PLATFORM_MAINTENANCE=on): xplan/health answers BAD");

const app = createApp({ db, clock: systemClock, env, logger: log });
// Prometheus metrics on their own port when PLATFORM_METRICS_PORT is set (docs/decisions/126)
if (env.metrics) startMetricsServer(env.metrics);
const server = app.listen(env.port, env.host, () => {
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : env.port;
  log.info({ host: env.host, port }, "platform listening");
});
// an idle keep-alive connection stays open longer than its clients keep it in their pools, so a client
// never sends a request on a connection the platform is closing at that moment (a reset, not an answer)
server.keepAliveTimeout = 65_000;
server.headersTimeout = 66_000;
server.on("error", (error) => {
  log.error({ err: error }, "platform could not start");
  closeDatabase(db);
  process.exit(1);
});

let stopping = false;
function stop(signal: string) {
  if (stopping) return;
  stopping = true;
  log.info({ signal }, "platform stopping");
  stopRetention();
  server.close(() => {
    closeDatabase(db);
    process.exit(0);
  });
  server.closeAllConnections();
  setTimeout(() => process.exit(1), 5000).unref();
}
process.on("SIGTERM", () => stop("SIGTERM"));
process.on("SIGINT", () => stop("SIGINT"));
