// @ts-check
// The portal's server, as a production server (scripts/portal-server.mjs, docs/decisions/026) and
// the development loop's (scripts/portal-dev-server.mjs, docs/decisions/152) run it: Express with
// Remix's request handler. It serves the built assets, gives every loader and action the address
// of the TCP peer (app/runtime/load-context.ts) and drains its connections on SIGTERM and SIGINT.
// Every answer carries the security headers, and what no page takes (another method, a cross-site
// or non-form post) is refused before Remix sees it (docs/decisions/112).
//
// Environment: PORT (3000), HOST (all interfaces), REMIX_BUILD_DIR (build), LOG_LEVEL (info);
// everything else is the app's own configuration (app/runtime/env.server.ts).
import { readdirSync } from "node:fs";
import { createServer } from "node:http";
import { resolve } from "node:path";
import { createRequestHandler } from "@remix-run/express";
import compression from "compression";
import express from "express";

/** @typedef {import("express").Request} Request */
/** @typedef {import("express").Response} Response */
/** @typedef {import("express").NextFunction} NextFunction */
/**
 * What the server takes from the build's entry module (app/entry.server.tsx): a type only, checked
 * against the app's own; at run time it comes from the build, never from app/.
 * @typedef {typeof import("../app/entry.server")} PortalEntry
 * @typedef {import("@remix-run/node").ServerBuild & { entry: { module: PortalEntry } }} PortalBuild
 * @typedef {"error" | "warn" | "info" | "debug"} Level
 */

const root = resolve(import.meta.dirname, "..");
const logLevel = process.env.LOG_LEVEL ?? "info";
// A load balancer stops sending new requests when an instance stops accepting them; requests
// already in flight get this long to finish before their connections are cut.
const DRAIN_MS = 10_000;

// The app's logger (app/runtime/logger.server.ts, from the build's entry): pino's JSON lines at
// LOG_LEVEL, secrets redacted, each with the id of the request it is about (docs/decisions/125).
// Before the build is loaded (a bad PORT), a line of the same shape on stderr.
/** @type {PortalEntry["logger"] | null} */
let logger = null;
/**
 * @param {Level} level
 * @param {string} message
 * @param {Record<string, unknown>} [fields]
 */
export function log(level, message, fields = {}) {
  if (logger) return logger[level](message, fields);
  if (logLevel === "silent") return;
  process.stderr.write(`${JSON.stringify({ time: new Date().toISOString(), level, message, ...fields })}\n`);
}

/** PORT and HOST; a PORT that is no port stops the process. */
export function portalAddress() {
  const port = Number(process.env.PORT ?? 3000);
  const host = process.env.HOST || undefined;
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    log("error", "invalid PORT", { port: process.env.PORT });
    process.exit(1);
  }
  return { port, host };
}

/** The server build of REMIX_BUILD_DIR (as in remix.config.js), resolved against the project. */
export const buildPath = resolve(root, process.env.REMIX_BUILD_DIR ?? "build", "index.js");

/**
 * The build at `url` (the build's file, or that file with a query that makes it a new module), its
 * logger from then on the server's; null, said in the log, when its entry module lacks what the
 * server takes from it.
 * @param {string} url
 * @returns {Promise<PortalBuild | null>}
 */
export async function importBuild(url) {
  /** @type {PortalBuild} */
  const build = await import(url);
  const entry = build.entry.module;
  if (typeof entry.logger?.info !== "function" || typeof entry.runWithRequestId !== "function") {
    log("error", "the build's entry module has no logger or request id", { build: buildPath });
    return null;
  }
  logger = entry.logger;
  // The security headers of every answer, from the app (app/runtime/security-headers.server.ts).
  if (typeof entry.answerSecurityHeaders !== "function" || typeof entry.apiAnswerDisposition !== "function") {
    log("error", "the build's entry module has no answerSecurityHeaders", { build: buildPath });
    return null;
  }
  return build;
}

let stopping = false;

/**
 * Just before an answer's headers go out, whoever wrote it, the security headers it has not set
 * itself: pages keep their nonce policy (entry.server), a file its own policy and its own name. A
 * JSON answer (a data request, a resource route's) without a Content-Disposition is a download
 * (docs/decisions/169). A 405 that does not say what the address takes gets Remix's (GET and HEAD:
 * a post to an address without a form).
 * @param {() => [string, string][]} answerHeaders the current build's
 * @param {() => PortalEntry["apiAnswerDisposition"]} disposition the current build's
 */
function securityHeaders(answerHeaders, disposition) {
  /** @param {Request} _req @param {Response} res @param {NextFunction} next */
  return function withSecurityHeaders(_req, res, next) {
    const writeHead = res.writeHead;
    res.writeHead = function writeHeadWithSecurityHeaders(/** @type {any[]} */ ...args) {
      // every form writeHead takes (status, message, headers) is passed on as it came
      const passOn = () => writeHead.apply(this, /** @type {Parameters<typeof writeHead>} */ (args));
      if (res.headersSent) return passOn();
      for (const [name, value] of answerHeaders()) if (!res.hasHeader(name)) res.setHeader(name, value);
      if (!res.hasHeader("Content-Disposition")) {
        const type = res.getHeader("Content-Type");
        const attachment = disposition()(typeof type === "string" ? type : null);
        if (attachment) res.setHeader("Content-Disposition", attachment);
      }
      const status = typeof args[0] === "number" ? args[0] : res.statusCode;
      if (status === 405 && !res.hasHeader("Allow")) res.setHeader("Allow", "GET, HEAD");
      return passOn();
    };
    next();
  };
}

// Pages are read (GET, HEAD) and their forms posted (POST); nothing else is served.
const METHODS = ["GET", "HEAD", "POST"];
// Every form of the portal is posted as one of these (Remix's forms, the scripts' FormData).
const FORM_TYPES = new Set(["application/x-www-form-urlencoded", "multipart/form-data"]);

/**
 * Whether a post comes from the portal's own pages, by Remix's own rule (its action handler throws,
 * an empty 500, when this fails): no Origin, or an Origin whose host is the forwarded host or the
 * Host. `null` and anything that is not an address are another site's.
 * @param {Request} req
 */
function sameOrigin(req) {
  const origin = req.get("origin");
  if (origin === undefined) return true;
  let host;
  try {
    host = new URL(origin).host;
  } catch {
    return false;
  }
  const own = req.get("x-forwarded-host")?.split(",")[0]?.trim() || req.get("host");
  return Boolean(own) && host === own;
}

/**
 * A request no page takes: the status, the answer and what the log says, or null to serve it.
 * @param {Request} req
 * @returns {{ status: 403 | 405 | 415; text: string; reason: string } | null}
 */
function refusalOf(req) {
  if (!METHODS.includes(req.method)) return { status: 405, text: "Method Not Allowed", reason: "method not allowed" };
  if (req.method !== "POST") return null;
  if (!sameOrigin(req)) return { status: 403, text: "Cross-site form posts are refused.", reason: "cross-site post" };
  const type = ((req.get("content-type") ?? "").split(";")[0] ?? "").trim().toLowerCase();
  if (!FORM_TYPES.has(type)) return { status: 415, text: "Unsupported Media Type", reason: "not a form" };
  return null;
}

/** @param {Request} req @param {Response} res @param {NextFunction} next */
function refuseWhatNoPageTakes(req, res, next) {
  const refusal = refusalOf(req);
  if (!refusal) return next();
  log("warn", "request refused", {
    method: req.method,
    path: req.path,
    status: refusal.status,
    reason: refusal.reason,
    ...(refusal.status === 403 ? { origin: String(req.get("origin")).slice(0, 200) } : {}),
  });
  if (refusal.status === 405) res.setHeader("Allow", METHODS.join(", "));
  // The body is not read: the connection closes rather than carry it into the next request.
  res.setHeader("Connection", "close");
  res.status(refusal.status).type("text/plain").send(refusal.text);
}

// Each request's id: the load balancer's X-Request-Id when sane, else a new one (the app's rule);
// on the answer, on the request's log lines and on its platform calls (docs/decisions/125). The
// request's one context: how long it waits for the platform is kept there too (the entry's
// Server-Timing, issue 16; docs/decisions/132), and whether it asks for a whole page, read from
// the URL here because Remix takes `_data` away before a loader sees the request (docs/decisions/156).
// The context is the current build's: a build imported again has contexts of its own.
/** @param {() => PortalBuild} current */
function requestIds(current) {
  /** @param {Request} req @param {Response} res @param {NextFunction} next */
  return function withRequestId(req, res, next) {
    const { requestIdOf, runWithRequestId } = current().entry.module;
    const requestId = requestIdOf(req.get("x-request-id"));
    res.locals.requestId = requestId;
    res.setHeader("X-Request-Id", requestId);
    // where the request came from, passed on to the platform (docs/decisions/164, 170)
    const connection = {
      socketAddress: req.socket.remoteAddress,
      forwardedFor: req.get("x-forwarded-for"),
      userAgent: req.get("user-agent"),
    };
    runWithRequestId(requestId, next, req.originalUrl, connection);
  };
}

/** @param {Request} req @param {Response} res @param {NextFunction} next */
function logRequest(req, res, next) {
  const started = performance.now();
  res.on("finish", () => {
    log("info", "request", {
      method: req.method,
      path: req.path,
      status: res.statusCode,
      ms: Math.round(performance.now() - started),
      requestId: res.locals.requestId,
    });
  });
  next();
}

/**
 * The portal's Express app for a build (production: imported once), or for a getter of the
 * current build (development: imported again after each rebuild).
 * @param {PortalBuild | (() => PortalBuild)} build
 */
export async function createPortalApp(build) {
  const current = typeof build === "function" ? build : () => build;
  const initial = current();
  /** @type {PortalBuild} */
  let headersBuild = initial;
  let answerHeaders = Object.entries(initial.entry.module.answerSecurityHeaders());
  const currentAnswerHeaders = () => {
    if (current() !== headersBuild) {
      headersBuild = current();
      answerHeaders = Object.entries(headersBuild.entry.module.answerSecurityHeaders());
    }
    return answerHeaders;
  };

  const app = express();
  app.disable("x-powered-by");
  app.use(requestIds(current));
  app.use(securityHeaders(currentAnswerHeaders, () => current().entry.module.apiAnswerDisposition));
  // While draining, every answer closes its connection: a load balancer's keep-alive connection
  // must not carry new requests to an instance that is leaving (it would never finish closing).
  // The readiness check says so at once, whatever the platform's state.
  app.use((req, res, next) => {
    if (!stopping) return next();
    res.setHeader("Connection", "close");
    if (req.path === "/readyz") return res.status(503).type("text/plain").send("draining");
    next();
  });
  app.use(refuseWhatNoPageTakes);
  // decision 124: zlib's level 3 (of 9; the default is 6) compresses a page in about two thirds of
  // the time for some 6% more bytes; pages are built per request, so their compression is paid on each.
  app.use(compression({ level: 3 }));
  // Fingerprinted build output never changes under its name; everything else in public/ may.
  app.use(
    initial.publicPath,
    express.static(resolve(root, initial.assetsBuildDirectory), { immutable: true, maxAge: "1y" }),
  );
  // public/'s own files (the icon, brand images) are looked for on disk only under its top-level
  // names, read at start: a page's address does not cost a file lookup (docs/decisions/132).
  const publicDir = resolve(root, "public");
  const publicNames = new Set(readdirSync(publicDir));
  const servePublic = express.static(publicDir, { maxAge: "1h" });
  app.use((req, res, next) => (publicNames.has(req.path.split("/")[1] ?? "") ? servePublic(req, res, next) : next()));
  // Prometheus metrics on METRICS_PORT when it is set (app/runtime/metrics.server.ts, docs/decisions/126):
  // pages, data and resource requests counted per route and status; static files are not.
  const countRequests = await initial.entry.module.startPortalMetrics?.(initial);
  if (countRequests) app.use(countRequests);
  // Pages and data requests (static files are answered above and not logged).
  app.use(logRequest);
  /** @param {PortalBuild | (() => Promise<PortalBuild>)} handled */
  const remixHandler = (handled) =>
    createRequestHandler({
      build: handled,
      mode: process.env.NODE_ENV,
      // The app decides how far to trust X-Forwarded-For (TRUST_PROXY_HOPS); it needs the peer's
      // address for that, and as the client's address when no proxy is trusted.
      getLoadContext: (req) => ({ socketAddress: req.socket.remoteAddress }),
    });
  app.use(typeof build === "function" ? remixHandler(async () => build()) : sectionedHandler(build, remixHandler));
  return app;
}

/**
 * A request handler per section of the route tree, by a path's first two segments and by its first,
 * each with a build of that section's routes only (app/lib/route-sections.ts, docs/decisions/162);
 * the whole tree takes the rest (the route discovery's `/__manifest`, addresses no section has,
 * odd targets).
 * @param {PortalBuild} build
 * @param {(build: PortalBuild) => import("express").RequestHandler} remixHandler
 * @returns {import("express").RequestHandler}
 */
function sectionedHandler(build, remixHandler) {
  const whole = remixHandler(build);
  const { routeSections, sectionsOfTarget } = build.entry.module;
  /** @type {Map<string, import("express").RequestHandler>} */
  const sections = new Map();
  for (const [key, ids] of routeSections(build.routes)) {
    /** @type {<T>(routes: Record<string, T>) => Record<string, T>} */
    const pick = (routes) => Object.fromEntries(ids.flatMap((id) => (routes[id] ? [[id, routes[id]]] : [])));
    const routes = pick(build.routes);
    sections.set(
      key,
      remixHandler({ ...build, routes, assets: { ...build.assets, routes: pick(build.assets.routes) } }),
    );
  }
  return function handleInSection(req, res, next) {
    for (const key of sectionsOfTarget(req.originalUrl, [req.headers.host, req.get("x-forwarded-host")])) {
      const handler = sections.get(key);
      if (handler) return handler(req, res, next);
    }
    return whole(req, res, next);
  };
}

/**
 * Serves `app` on `port` and `host` until SIGTERM or SIGINT, which drain it; `onListening` once it
 * listens.
 * @param {import("express").Express} app
 * @param {{ port: number; host: string | undefined }} address
 * @param {() => void} [onListening]
 */
export function servePortal(app, { port, host }, onListening) {
  const server = createServer(app);
  server.on("error", (error) => {
    log("error", "portal server failed", { error: String(error) });
    process.exit(1);
  });
  server.listen({ port, host }, () => {
    const address = server.address();
    log("info", "portal listening", {
      port: typeof address === "object" && address ? address.port : port,
      host: host ?? null,
    });
    onListening?.();
  });

  /** @param {NodeJS.Signals} signal */
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
}
