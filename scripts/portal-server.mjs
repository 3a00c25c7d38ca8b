// The portal's production server (`npm run start:portal`, docs/decisions/026): Express with Remix's
// request handler. It serves the built assets, gives every loader and action the address of the
// TCP peer (app/runtime/load-context.ts) and drains its connections on SIGTERM and SIGINT.
//
// Environment: PORT (3000), HOST (all interfaces), REMIX_BUILD_DIR (build), LOG_LEVEL (info);
// everything else is the app's own configuration (app/runtime/env.server.ts).
import { createServer } from "node:http";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { createRequestHandler } from "@remix-run/express";
import { installGlobals } from "@remix-run/node";
import compression from "compression";
import express from "express";

process.env.NODE_ENV = process.env.NODE_ENV ?? "production";
// Stack traces point into app/ when the build carries source maps.
process.setSourceMapsEnabled(true);

const root = resolve(import.meta.dirname, "..");
const port = Number(process.env.PORT ?? 3000);
const host = process.env.HOST || undefined;
const logLevel = process.env.LOG_LEVEL ?? "info";
// A load balancer stops sending new requests when an instance stops accepting them; requests
// already in flight get this long to finish before their connections are cut.
const DRAIN_MS = 10_000;

// The app's log format (app/runtime/logger.server.ts): one JSON line per event.
function log(level, message, fields = {}) {
  if (logLevel === "silent" || (level === "info" && logLevel === "error")) return;
  const line = JSON.stringify({ time: new Date().toISOString(), level, message, ...fields });
  (level === "error" ? process.stderr : process.stdout).write(`${line}\n`);
}

if (!Number.isInteger(port) || port < 0 || port > 65_535) {
  log("error", "invalid PORT", { port: process.env.PORT });
  process.exit(1);
}

const buildPath = resolve(root, process.env.REMIX_BUILD_DIR ?? "build", "index.js");
const build = await import(pathToFileURL(buildPath).href);
installGlobals({ nativeFetch: build.future.v3_singleFetch });

let stopping = false;

const app = express();
app.disable("x-powered-by");
// While draining, every answer closes its connection: a load balancer's keep-alive connection
// must not carry new requests to an instance that is leaving (it would never finish closing).
// The readiness check says so at once, whatever the platform's state.
app.use((req, res, next) => {
  if (!stopping) return next();
  res.setHeader("Connection", "close");
  if (req.path === "/readyz") return res.status(503).type("text/plain").send("draining");
  next();
});
app.use(compression());
// Fingerprinted build output never changes under its name; everything else in public/ may.
app.use(build.publicPath, express.static(resolve(root, build.assetsBuildDirectory), { immutable: true, maxAge: "1y" }));
app.use(express.static(resolve(root, "public"), { maxAge: "1h" }));
// Pages and data requests (static files are answered above and not logged).
app.use((req, res, next) => {
  const started = performance.now();
  res.on("finish", () => {
    log("info", "request", {
      method: req.method,
      path: req.path,
      status: res.statusCode,
      ms: Math.round(performance.now() - started),
    });
  });
  next();
});
// Each request records how long it waits for the platform (the entry's Server-Timing, issue 16).
const withPlatformTiming = build.entry.module.runWithPlatformTiming;
if (typeof withPlatformTiming === "function") app.use((_req, _res, next) => withPlatformTiming(next));
app.use(
  createRequestHandler({
    build,
    mode: process.env.NODE_ENV,
    // The app decides how far to trust X-Forwarded-For (TRUST_PROXY_HOPS); it needs the peer's
    // address for that, and as the client's address when no proxy is trusted.
    getLoadContext: (req) => ({ socketAddress: req.socket.remoteAddress }),
  }),
);

const server = createServer(app);
server.on("error", (error) => {
  log("error", "portal server failed", { error: String(error) });
  process.exit(1);
});
server.listen({ port, host }, () => {
  const address = server.address();
  log("info", "portal listening", { port: typeof address === "object" && address ? address.port : port, host: host ?? null });
});

function stop(signal) {
  if (stopping) return;
  stopping = true;
  log("info", "portal draining", { signal });
  // No new connections; idle keep-alive connections close now, busy ones after their response.
  server.close(() => {
    log("info", "portal stopped", { signal });
    process.exit(0);
  });
  // A connection busy at the signal turns idle when its answer is sent: close it then too.
  server.closeIdleConnections();
  setInterval(() => server.closeIdleConnections(), 100).unref();
  setTimeout(() => {
    log("error", "portal stopped with requests still open", { signal });
    server.closeAllConnections();
    process.exit(1);
  }, DRAIN_MS).unref();
}
process.once("SIGTERM", () => stop("SIGTERM"));
process.once("SIGINT", () => stop("SIGINT"));
