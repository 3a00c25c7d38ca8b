import { createServer, type Server } from "node:http";
import type { NextFunction, Request, Response } from "express";
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";
import { version as packageVersion } from "../../package.json";

// The platform's figures for an operator (issue 26, docs/decisions/126), as the portal has its own
// (app/runtime/metrics.server.ts): prom-client's default metrics (event-loop lag, heap, resident
// memory), requests per route pattern and status, and the build, served as Prometheus text at
// GET /metrics on their own port (PLATFORM_METRICS_PORT, off unless set; PLATFORM_METRICS_HOST,
// loopback unless told). A request's route is the pattern the dispatcher matched (server/api/router.ts,
// e.g. /resourceful/docnote-v2/:id), or `unmatched`: a raw path would make a series per id.

export const registry = new Registry();

export const UNMATCHED = "unmatched";

const BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];

const requests = new Counter({
  name: "platform_http_requests_total",
  help: "Requests answered, by method, route pattern and status",
  labelNames: ["method", "route", "status"] as const,
  registers: [registry],
});
const requestDuration = new Histogram({
  name: "platform_http_request_duration_seconds",
  help: "Time to answer a request, by method, route pattern and status",
  labelNames: ["method", "route", "status"] as const,
  buckets: BUCKETS,
  registers: [registry],
});
// Authentication decisions as the `auth` lines log them (docs/decisions/174): what the alert rules
// watch for guessing, recovery abuse and lockouts (deploy/prometheus/alerts.yml, decision 190).
// Both labels are bounded: the steps of AUTH_STEPS (server/lib/auth-log.ts) and five outcomes.
const authDecisions = new Counter({
  name: "platform_auth_decisions_total",
  help: "Authentication decisions, by step (password, code, memorable, passkey, resetCode, reset, …) and outcome (success, failure, locked, refused, error)",
  labelNames: ["step", "outcome"] as const,
  registers: [registry],
});
const lockouts = new Counter({
  name: "platform_auth_lockouts_total",
  help: "Accounts locked by their fifth consecutive wrong secret (decision 041)",
  registers: [registry],
});
const buildInfo = new Gauge({
  name: "platform_build_info",
  help: "The running build: the package's version and the platform version GET site reports (1)",
  labelNames: ["version", "platform_version"] as const,
  registers: [registry],
});

type RequestLabel = "method" | "route" | "status";
type Series = { count: Counter.Internal; duration: Histogram.Internal<RequestLabel> };
const METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"];

let observing = false;

/**
 * Starts observing and returns the middleware that counts every request once answered; the route
 * is what the app puts in `res.locals.route` (server/app.ts). The series of a route, method and
 * status are made once, then reused: no label objects per request.
 */
export function observePlatform(platformVersion: string) {
  if (!observing) {
    observing = true;
    collectDefaultMetrics({ register: registry });
    buildInfo.set({ version: packageVersion, platform_version: platformVersion }, 1);
  }
  const seriesByRoute = new Map<string, Map<number, Series>>();
  const seriesOf = (route: string, method: string, status: number): Series => {
    let byKey = seriesByRoute.get(route);
    if (!byKey) seriesByRoute.set(route, (byKey = new Map()));
    const m = METHODS.indexOf(method);
    const key = status * 8 + (m < 0 ? 7 : m);
    let series = byKey.get(key);
    if (!series) {
      const labels = [m < 0 ? "other" : method, route, String(status)];
      series = { count: requests.labels(...labels), duration: requestDuration.labels(...labels) };
      byKey.set(key, series);
    }
    return series;
  };
  return function countRequests(req: Request, res: Response, next: NextFunction) {
    const started = performance.now();
    res.once("finish", () => {
      const route = res.locals.route;
      const series = seriesOf(typeof route === "string" ? route : UNMATCHED, req.method, res.statusCode);
      series.count.inc();
      series.duration.observe((performance.now() - started) / 1000);
    });
    next();
  };
}

/** One authentication decision, once its `auth` line is written; `lockedNow` when it locked the account. */
export function authDecided(step: string, outcome: string, lockedNow: boolean): void {
  if (!observing) return;
  authDecisions.labels(step, outcome).inc();
  if (lockedNow) lockouts.inc();
}

/**
 * Serves `metrics` as Prometheus text at GET (or HEAD) /metrics on `port` and `host`; any other
 * path is 404, another method 405. The server does not keep the process alive on its own.
 */
export function serveMetrics(metrics: Registry, { port, host }: { port: number; host: string }): Promise<Server> {
  const server = createServer((req, res) => {
    const path = (req.url ?? "/").split("?")[0];
    if (path !== "/metrics") {
      res.writeHead(404, { "Content-Type": "text/plain; charset=utf-8" }).end("Not Found");
      return;
    }
    if (req.method !== "GET" && req.method !== "HEAD") {
      res.writeHead(405, { Allow: "GET, HEAD", "Content-Type": "text/plain; charset=utf-8" }).end("Method Not Allowed");
      return;
    }
    metrics.metrics().then(
      (text) => {
        res.writeHead(200, { "Content-Type": metrics.contentType, "Cache-Control": "no-store" });
        res.end(req.method === "HEAD" ? undefined : text);
      },
      (error: unknown) => {
        console.error("platform metrics could not be collected", error);
        res.writeHead(500, { "Content-Type": "text/plain; charset=utf-8" }).end("Internal Server Error");
      },
    );
  });
  server.unref();
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen({ port, host }, () => {
      server.off("error", reject);
      resolve(server);
    });
  });
}

/** What server/main.ts calls when PLATFORM_METRICS_PORT is set; a port it cannot bind stops the platform. */
export function startMetricsServer(where: { port: number; host: string }): void {
  serveMetrics(registry, where).then(
    (server) => {
      const address = server.address();
      console.log(
        `platform metrics on http://${where.host}:${typeof address === "object" && address ? address.port : where.port}/metrics`,
      );
    },
    (error: unknown) => {
      console.error("platform metrics could not start", error);
      process.exit(1);
    },
  );
}
