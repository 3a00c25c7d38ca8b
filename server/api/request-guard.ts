import type { NextFunction, Request, Response } from "express";
import { devEndpointsOn, type PlatformEnv } from "../env";
import { CALLER_KEY_HEADER, callerKeyChecker } from "../lib/caller-key";
import type { PlatformLogger } from "../lib/logger";
import { ApiError, errorBody } from "./http";

// docs/decisions/114: outside production the platform answers its configured host names only (a page
// whose name was rebound to 127.0.0.1 names its own host), and its development endpoints answer
// what the demo's tools send, never what a page on another site can make a browser send.

/** The names answered outside production when PLATFORM_ALLOWED_HOSTS is unset (any port). */
export const LOOPBACK_HOSTS = ["localhost", "127.0.0.1", "[::1]"] as const;

/** A Host header as name and port (the port null when absent); null when it is not a host. */
export function parseHost(value: string): { name: string; port: string | null } | null {
  const match = /^(\[[0-9a-f:.]+\]|[^:[\]]+)(?::(\d{1,5}))?$/i.exec(value.trim());
  if (!match) return null;
  return { name: match[1]!.toLowerCase(), port: match[2] ?? null };
}

/** Whether a Host header is one of the allowed entries: `name` (any port) or `name:port`. */
export function hostAllowed(value: string | undefined, allowed: readonly string[]): boolean {
  const host = value === undefined ? null : parseHost(value);
  if (!host) return false;
  return allowed.some((entry) => {
    const wanted = parseHost(entry);
    return wanted !== null && wanted.name === host.name && (wanted.port === null || wanted.port === host.port);
  });
}

/** The hosts checked: the configured ones, else the loopback names outside production, else none (null). */
export function allowedHostsOf(env: PlatformEnv): readonly string[] | null {
  if (env.allowedHosts?.length) return env.allowedHosts;
  return env.nodeEnv === "production" ? null : LOOPBACK_HOSTS;
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** Why a request to /dev/* is refused, or null when it may go on. */
export function devRequestRefusal(request: {
  method: string;
  host: string | undefined;
  origin: string | undefined;
  fetchSite: string | undefined;
  contentType: string | undefined;
}): ApiError | null {
  // a browser names the site that made the request; only the platform's own pages (it has none) and
  // the demo's tools (no Origin, or a typed-in address) may use the development endpoints
  if (request.origin !== undefined) {
    const own =
      request.host === undefined
        ? []
        : [`http://${request.host}`, `https://${request.host}`].map((o) => o.toLowerCase());
    if (!own.includes(request.origin.trim().toLowerCase()))
      return new ApiError(403, "Cross-origin requests are refused by the development endpoints");
  }
  const site = request.fetchSite?.trim().toLowerCase();
  if (site !== undefined && site !== "same-origin" && site !== "none") {
    return new ApiError(403, "Cross-site requests are refused by the development endpoints");
  }
  // a JSON body cannot be sent across sites without the platform's consent (a CORS preflight, never given)
  if (!SAFE_METHODS.has(request.method.toUpperCase())) {
    const type = request.contentType?.split(";")[0]?.trim().toLowerCase();
    if (type !== "application/json") return new ApiError(415, "The development endpoints accept application/json only");
  }
  return null;
}

function refuse(log: PlatformLogger, req: Request, res: Response, error: ApiError, why: string) {
  // a refusal is the caller's mistake, not the platform's: a warning, with no query (it can hold names)
  log.warn({ method: req.method, path: req.path, status: error.status, reason: why }, "request refused");
  res.status(error.status).setHeader("Cache-Control", "no-store").json(errorBody(error));
}

/**
 * Whether a caller's key opens the platform (docs/decisions/186): one of PLATFORM_CALLER_KEYS in
 * X-Caller-Key; without keys, every caller outside production (development) and none in production.
 */
export function callerCheck(env: PlatformEnv): (presented: string | string[] | undefined) => boolean {
  if (env.callerKeys?.length) return callerKeyChecker(env.callerKeys);
  return env.nodeEnv === "production" ? () => false : () => true;
}

/** The middleware: runs before any body is read. */
export function requestGuard(env: PlatformEnv, log: PlatformLogger) {
  const hosts = allowedHostsOf(env);
  const devEndpoints = devEndpointsOn(env);
  const callerAuthenticated = callerCheck(env);
  return (req: Request, res: Response, next: NextFunction) => {
    if (hosts && !hostAllowed(req.headers.host, hosts)) {
      return refuse(
        log,
        req,
        res,
        new ApiError(403, "Host not allowed"),
        `host ${JSON.stringify(req.headers.host ?? "")} is not allowed`,
      );
    }
    // every call, health checks and /dev too: only an authenticated caller reaches a route, so the
    // client's address and browser it passes on (X-Client-*, decisions 164 and 170) are its word
    if (!callerAuthenticated(req.headers[CALLER_KEY_HEADER.toLowerCase()])) {
      return refuse(
        log,
        req,
        res,
        new ApiError(401, "Caller not authenticated"),
        `no valid ${CALLER_KEY_HEADER} (PLATFORM_CALLER_KEYS)`,
      );
    }
    if (devEndpoints && isDevPath(req.originalUrl)) {
      const refusal = devRequestRefusal({
        method: req.method,
        host: req.headers.host,
        origin: req.headers.origin,
        fetchSite: header(req.headers["sec-fetch-site"]),
        contentType: req.headers["content-type"],
      });
      if (refusal) return refuse(log, req, res, refusal, refusal.apiMessage);
    }
    next();
  };
}

/** The path as the dispatcher reads it (dot segments resolved, as in server/app.ts), under /dev. */
export function isDevPath(originalUrl: string): boolean {
  let path: string;
  try {
    path = new URL(`http://platform${originalUrl}`).pathname;
  } catch {
    return true; // not a path the dispatcher can read: held to the strict rules
  }
  return path === "/dev" || path.startsWith("/dev/");
}

const header = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);
