import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";
import { version as packageVersion } from "../../package.json";
import {
  bounded,
  callOutcome,
  endpointOf,
  type ManifestRoute,
  MAX_ENDPOINTS,
  routeMatcher,
  UNMATCHED,
} from "~/lib/metric-labels";
import { env } from "./env.server";
import { logger } from "./logger.server";

// The figures an operator watches (issue 26, docs/decisions/126), with prom-client: served as
// Prometheus text on their own port (METRICS_PORT, off unless set; METRICS_HOST, loopback unless
// told), never on the portal's own. The portal's server starts them (scripts/portal-server.mjs,
// through the server build's entry) and counts every page, data and resource request it hands to
// Remix (static files are answered before and not counted). Until they are started nothing is
// observed: the planning client's and the rate limits' hooks cost a flag test.

export const registry = new Registry();

// Seconds: pages answer in milliseconds, a platform call may run to its timeout (10 s).
const BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

const requests = new Counter({
  name: "portal_http_requests_total",
  help: "Requests answered, by method, Remix route id and status",
  labelNames: ["method", "route", "status"] as const,
  registers: [registry],
});
const requestDuration = new Histogram({
  name: "portal_http_request_duration_seconds",
  help: "Time to answer a request (to its last byte), by method, Remix route id and status",
  labelNames: ["method", "route", "status"] as const,
  buckets: BUCKETS,
  registers: [registry],
});
const platformCalls = new Histogram({
  name: "portal_platform_call_duration_seconds",
  help: "Time of each attempt of a platform call, by method, endpoint (path template) and outcome (ok, 3xx, 4xx, 5xx, timeout, network_error)",
  labelNames: ["method", "endpoint", "outcome"] as const,
  buckets: BUCKETS,
  registers: [registry],
});
const platformRetries = new Counter({
  name: "portal_platform_call_retries_total",
  help: "Platform calls sent again after no answer or a 5xx (spec 000 §7), by method and endpoint",
  labelNames: ["method", "endpoint"] as const,
  registers: [registry],
});
const rateLimitRefusals = new Counter({
  name: "portal_rate_limit_refusals_total",
  help: "Posts refused by a rate limit (decisions 046, 115), by limit: signIn, recovery, passkeyOptions, signInFailures, deviceFailures",
  labelNames: ["limit"] as const,
  registers: [registry],
});
const buildInfo = new Gauge({
  name: "portal_build_info",
  help: "The running build: the package's version and the build's hash (1)",
  labelNames: ["version", "build"] as const,
  registers: [registry],
});

let observing = false;

/** What the portal's server needs of its Remix build. */
export type PortalBuild = { routes: Record<string, ManifestRoute | undefined>; assets: { version: string } };

type RequestLabel = "method" | "route" | "status";
type Series = { count: Counter.Internal; duration: Histogram.Internal<RequestLabel> };
type RequestCounter = (req: IncomingMessage, res: ServerResponse, next: () => void) => void;

const METHODS = ["GET", "HEAD", "POST"];

/**
 * Starts observing and returns the middleware that counts requests. A request's route is the Remix
 * route id: of its `_data` for a data request (when the build has that route), else of the route
 * Remix matches for its path (`routeMatcher`); `unmatched` when there is none, `__manifest` for
 * the lazy route discovery's requests. The series of a route, method and status are made once.
 */
export function observePortal(build: PortalBuild): RequestCounter {
  if (!observing) {
    observing = true;
    collectDefaultMetrics({ register: registry });
    buildInfo.set({ version: packageVersion, build: build.assets.version }, 1);
  }
  const routeOf = routeMatcher(build.routes);
  const routeIds = new Set(Object.keys(build.routes));
  const routeLabel = (url: string): string => {
    const q = url.indexOf("?");
    if (q >= 0 && url.includes("_data=", q)) {
      const id = new URLSearchParams(url.slice(q + 1)).get("_data");
      return id !== null && routeIds.has(id) ? id : UNMATCHED;
    }
    const pathname = q < 0 ? url : url.slice(0, q);
    return pathname === "/__manifest" ? "__manifest" : routeOf(pathname);
  };
  // route → (status × 4 + method) → series: no label objects made per request once seen.
  const seriesByRoute = new Map<string, Map<number, Series>>();
  const seriesOf = (route: string, method: string, status: number): Series => {
    let byKey = seriesByRoute.get(route);
    if (!byKey) seriesByRoute.set(route, (byKey = new Map()));
    const m = METHODS.indexOf(method);
    const key = status * 4 + (m < 0 ? 3 : m);
    let series = byKey.get(key);
    if (!series) {
      const labels = [m < 0 ? "other" : method, route, String(status)];
      series = { count: requests.labels(...labels), duration: requestDuration.labels(...labels) };
      byKey.set(key, series);
    }
    return series;
  };
  return function countRequests(req, res, next) {
    const started = performance.now();
    res.once("finish", () => {
      const series = seriesOf(routeLabel(req.url ?? "/"), req.method ?? "GET", res.statusCode);
      series.count.inc();
      series.duration.observe((performance.now() - started) / 1000);
    });
    next();
  };
}

/** One platform call's attempts, as the planning client makes them (app/planning/client.server.ts). */
export type PlatformCallObserver = {
  /** An attempt starts; any after the first is a retry. */
  attempt(): void;
  /** The attempt ended: the answer's status, or what was thrown when there was none. */
  answered(answer: number | unknown): void;
};

const NOT_OBSERVED: PlatformCallObserver = { attempt() {}, answered() {} };
const endpointsSeen = new Set<string>();

class ObservedCall implements PlatformCallObserver {
  private started = 0;
  private attempts = 0;
  constructor(
    private readonly method: string,
    private readonly endpoint: string,
  ) {}
  attempt() {
    if (this.attempts++ > 0) platformRetries.labels(this.method, this.endpoint).inc();
    this.started = performance.now();
  }
  answered(answer: number | unknown) {
    platformCalls
      .labels(this.method, this.endpoint, callOutcome(answer))
      .observe((performance.now() - this.started) / 1000);
  }
}

/** The observer of one platform call to `path` (its endpoint label: `endpointOf`, bounded). */
export function platformCallObserved(method: string, path: string): PlatformCallObserver {
  if (!observing) return NOT_OBSERVED;
  return new ObservedCall(method, bounded(endpointsSeen, endpointOf(path), MAX_ENDPOINTS));
}

/** A post refused by one of the rate limits (app/session/rate-limit.server.ts). */
export function rateLimitRefused(limit: string): void {
  if (observing) rateLimitRefusals.labels(limit).inc();
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
        logger.error("metrics could not be collected", { error: String(error) });
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

/**
 * What the portal's server calls at start: when METRICS_PORT is set, observes and serves the
 * metrics and returns the request counter to install; otherwise null and nothing is observed. A
 * metrics port that cannot be bound stops the portal, as its own port does.
 */
export async function startPortalMetrics(build: PortalBuild, where = env.metrics): Promise<RequestCounter | null> {
  if (!where) return null;
  const countRequests = observePortal(build);
  try {
    const server = await serveMetrics(registry, where);
    const address = server.address();
    logger.info("metrics listening", {
      port: typeof address === "object" && address ? address.port : where.port,
      host: where.host,
    });
  } catch (error) {
    logger.error("metrics server failed", { error: String(error) });
    process.exit(1);
  }
  return countRequests;
}
