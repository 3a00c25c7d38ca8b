import type { NextFunction, Request, Response } from "express";
import { devEndpointsOn, type PlatformEnv } from "../env";
import { CALLER_KEY_HEADER, callerKeyChecker } from "../lib/caller-key";
import type { PlatformLogger } from "../lib/logger";
import { ApiError, errorBody } from "./http";
import { isUploadPath } from "./docnote/files";

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

// ── the type of a request's body (ASVS 4.0.3 V13.1.5, V13.2.5; docs/decisions/182) ──────────────

/** Whether a request carries a body: a chunked one, or a Content-Length above zero. */
export function hasBody(headers: { "transfer-encoding"?: string; "content-length"?: string }): boolean {
  if (headers["transfer-encoding"] !== undefined) return true;
  const length = Number(headers["content-length"] ?? "0");
  return !Number.isFinite(length) || length > 0;
}

/** A Content-Type as its media type (lower case) and its parameters; null when it cannot be read. */
export function mediaTypeOf(value: string | undefined): { type: string; params: Record<string, string> } | null {
  if (!value) return null;
  const [type, ...rest] = value.split(";");
  const mediaType = type!.trim().toLowerCase();
  if (!/^[a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+$/.test(mediaType)) return null;
  const params: Record<string, string> = {};
  for (const part of rest) {
    const eq = part.indexOf("=");
    if (eq < 0) continue;
    params[part.slice(0, eq).trim().toLowerCase()] = part
      .slice(eq + 1)
      .trim()
      .replace(/^"(.*)"$/, "$1");
  }
  return { type: mediaType, params };
}

/**
 * Why a request's body is refused for its type (415), or null: every endpoint takes JSON
 * (`application/json`, UTF-8 when a charset is named), but the attachment upload, which takes
 * `multipart/form-data` with its boundary. A request without a body (GET, DELETE, an empty POST)
 * is not judged.
 */
export function bodyTypeRefusal(request: {
  method: string;
  path: string;
  contentType: string | undefined;
  hasBody: boolean;
}): ApiError | null {
  if (!request.hasBody) return null;
  const media = mediaTypeOf(request.contentType);
  if (request.method.toUpperCase() === "POST" && isUploadPath(request.path)) {
    if (media?.type === "multipart/form-data" && media.params.boundary) return null;
    return new ApiError(415, "This endpoint accepts multipart/form-data only");
  }
  const charset = media?.params.charset?.toLowerCase();
  if (media?.type === "application/json" && (charset === undefined || charset === "utf-8")) return null;
  return new ApiError(415, "This endpoint accepts application/json only");
}

/** The middleware: after the host check, before any body is read. */
export function bodyTypeGuard(log: PlatformLogger) {
  return (req: Request, res: Response, next: NextFunction) => {
    const refusal = bodyTypeRefusal({
      method: req.method,
      path: pathOf(req.originalUrl),
      contentType: req.headers["content-type"],
      hasBody: hasBody(req.headers),
    });
    if (!refusal) return next();
    // the body is not read: the connection cannot be used for another request
    res.setHeader("Connection", "close");
    const type = mediaTypeOf(req.headers["content-type"])?.type ?? "none";
    refuse(log, req, res, refusal, `content type ${type}`);
  };
}

/** The path as the dispatcher reads it, or "" when it cannot be read. */
function pathOf(originalUrl: string): string {
  try {
    return new URL(`http://platform${originalUrl}`).pathname;
  } catch {
    return "";
  }
}
