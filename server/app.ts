import express, { type NextFunction, type Request, type Response } from "express";
import { accountRoutes } from "./api/account";
import { adviserRoutes } from "./api/adviser";
import { authRoutes } from "./api/auth";
import { batchRoutes } from "./api/batch";
import { devRoutes } from "./api/dev";
import { docnoteRoutes } from "./api/docnote/index";
import { isUploadRequest, readUpload } from "./api/docnote/files";
import { entityRoutes } from "./api/entity";
import { portfolioRoutes } from "./api/portfolio/index";
import { healthRoutes } from "./api/health";
import { notificationRoutes } from "./api/notifications";
import { ApiError, errorBody } from "./api/http";
import { type ApiRequest, createDispatcher, queryOf, type Route, type Services } from "./api/router";
import { recoveryRoutes } from "./api/recovery";
import { bodyTypeGuard, requestGuard } from "./api/request-guard";
import { reportRoutes } from "./api/reports/index";
import { startReportRunner } from "./api/reports/runner";
import { reviewRoutes } from "./api/review";
import { passkeyRoutes } from "./api/passkeys";
import { sessionRoutes } from "./api/session";
import { signatureRoutes } from "./api/signature/index";
import { siteRoutes } from "./api/site";
import { createLogger, logLevelOf, type PlatformLogger, requestLogging } from "./lib/logger";
import { observePlatform } from "./lib/metrics";
import { clientOf } from "./lib/request-origin";
import { devEndpointsOn, platformVersion } from "./env";
import { echoOutbox, printOutboxMessage } from "./domain/accounts";

/** `logger`: where the platform logs (server/lib/logger.ts); by default stdout and stderr at the env's level. */
/**
 * `logger`: where the platform logs (server/lib/logger.ts); by default stdout and stderr at the env's level.
 * `console`: where a demo user's messages are printed while the development endpoints are off (decision
 * 168); by default stdout.
 */
export type AppOptions = Services & { logger?: PlatformLogger; console?: (text: string) => void };

/** The XPLANID cookie of a request (no cookie library: one name is all the platform reads). */
export function tokenFromCookies(header: string | undefined): string | null {
  for (const part of (header ?? "").split(";")) {
    const [name, ...rest] = part.trim().split("=");
    if (name === "XPLANID") {
      const value = rest.join("=").trim();
      if (!value) return null;
      try {
        return decodeURIComponent(value);
      } catch {
        return null;
      }
    }
  }
  return null;
}

/** Every route of the platform; the dev routes only when asked for, outside production (decision 168). */
function platformRoutes(env: AppOptions["env"], reports: ReturnType<typeof startReportRunner>): Route[] {
  return [
    ...healthRoutes,
    ...authRoutes,
    ...recoveryRoutes,
    ...accountRoutes,
    ...sessionRoutes,
    ...passkeyRoutes,
    ...siteRoutes,
    ...entityRoutes,
    ...notificationRoutes,
    ...reviewRoutes,
    ...portfolioRoutes,
    ...docnoteRoutes,
    ...signatureRoutes,
    ...reportRoutes(reports),
    ...adviserRoutes,
    ...batchRoutes,
    ...(devEndpointsOn(env) ? devRoutes : []),
  ];
}

/** The name a JSON answer is saved under when a browser is sent to it (ASVS 4.0.3 V14.4.2). */
const API_ANSWER_FILENAME = "api.json";

/**
 * ASVS 4.0.3 V14.4.2 (decision 169): the platform is an API. Every answer says nosniff, and a JSON
 * answer without a Content-Disposition of its own is a download, never a document a browser
 * renders; a file keeps its own name. Set just before the headers go out, whoever wrote the answer
 * (a route, the guard's refusals, Express's errors).
 */
function apiAnswerHeaders(_req: Request, res: Response, next: NextFunction) {
  const writeHead = res.writeHead;
  res.writeHead = function writeHeadOfAnApi(this: Response, ...args: unknown[]) {
    if (!res.headersSent) {
      if (!res.hasHeader("X-Content-Type-Options")) res.setHeader("X-Content-Type-Options", "nosniff");
      const type = String(res.getHeader("Content-Type") ?? "")
        .split(";")[0]!
        .trim()
        .toLowerCase();
      if (!res.hasHeader("Content-Disposition") && (type === "application/json" || type.endsWith("+json"))) {
        res.setHeader("Content-Disposition", `attachment; filename="${API_ANSWER_FILENAME}"`);
      }
    }
    return writeHead.apply(this, args as Parameters<Response["writeHead"]>);
  } as Response["writeHead"];
  next();
}

/** The handler that turns an Express request into the platform's request, dispatches it and writes its answer. */
function answerRequest(dispatch: ReturnType<typeof createDispatcher>) {
  return async (req: Request, res: Response) => {
    const url = new URL(`http://platform${req.originalUrl}`);
    // multipart bodies are read on the attachment upload route only (docs/platform-api.md)
    let body = req.body as unknown;
    if (isUploadRequest(req.method, url.pathname, req.headers["content-type"])) {
      try {
        body = await readUpload(req, url);
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        if (error.status === 413) res.setHeader("Connection", "close");
        res.status(error.status).json(errorBody(error));
        return;
      }
    }
    const request: ApiRequest = {
      method: req.method,
      path: url.pathname,
      params: {},
      query: queryOf(url),
      body,
      token: tokenFromCookies(req.headers.cookie),
      authFailureAsError: String(req.headers["x-xplan-auth-failure-action"] ?? "").toLowerCase() === "error",
      // the person's address and browser, read once (docs/decisions/182)
      client: clientOf(req.headers, req.socket.remoteAddress),
    };
    const answer = await dispatch(request);
    res.locals.route = request.route;
    res.status(answer.status);
    res.setHeader("Cache-Control", "no-store");
    for (const [name, value] of Object.entries(answer.headers ?? {})) res.setHeader(name, value);
    if (answer.cookies?.length) res.setHeader("Set-Cookie", answer.cookies);
    if (answer.raw !== undefined) res.end(answer.raw);
    else if (answer.body === undefined) res.end();
    else sendJson(req, res, answer.body);
  };
}

/**
 * A JSON answer, with the bytes and headers Express's `res.json` writes (`Content-Type:
 * application/json; charset=utf-8`, `Content-Length`, no body to a HEAD), without its checks of
 * the content type, the charset and the answer's freshness on every call (decision 160). An answer
 * those checks could change (a content type of its own, a status without a body, a conditional
 * request) still goes through `res.json`.
 */
function sendJson(req: Request, res: Response, body: unknown): void {
  if (
    res.getHeader("Content-Type") !== undefined ||
    res.statusCode === 204 ||
    res.statusCode === 205 ||
    res.statusCode === 304 ||
    req.headers["if-none-match"] !== undefined ||
    req.headers["if-modified-since"] !== undefined
  ) {
    res.json(body);
    return;
  }
  const text = JSON.stringify(body);
  res.setHeader("Content-Type", "application/json; charset=utf-8");
  res.setHeader("Content-Length", Buffer.byteLength(text));
  if (req.method === "HEAD") res.end();
  else res.end(text);
}

/** express.json's refusals (bad JSON, too large) as 4xx answers, and anything unexpected as a logged 500. */
function errorAnswer(log: PlatformLogger) {
  return (error: unknown, _req: Request, res: Response, _next: NextFunction) => {
    const status = typeof error === "object" && error !== null && "status" in error ? Number(error.status) : 500;
    if (status >= 400 && status < 500) {
      const message = status === 413 ? "Request body too large" : "Malformed JSON in request body";
      res.status(status).json(errorBody(new ApiError(status, message)));
      return;
    }
    log.error({ err: error }, "platform error");
    res
      .status(500)
      .json(
        errorBody(
          new ApiError(500, "The platform could not complete the request", "Something went wrong. Please try again."),
        ),
      );
  };
}

export function createApp({ db, clock, env, logger, console: print }: AppOptions) {
  const log = logger ?? createLogger(logLevelOf(env));
  // Without /dev/outbox, someone trying the demo reads a demo user's codes and messages on the
  // platform's console (decision 168); never in production, where messages would reach a real log.
  echoOutbox(
    db,
    devEndpointsOn(env) || env.nodeEnv === "production"
      ? null
      : (message) => printOutboxMessage(message, print ?? ((text) => process.stdout.write(text))),
  );
  // the report jobs' queue (docs/platform-api.md "Valuation reports"): started with the platform,
  // it first fails the jobs a previous process left unfinished
  const reports = startReportRunner({ db, clock, env, log });
  const routes = platformRoutes(env, reports);
  const dispatch = createDispatcher(routes, { db, clock, env }, log);
  const app = express();
  app.disable("x-powered-by");
  app.set("etag", false);
  // Prometheus metrics when PLATFORM_METRICS_PORT is set (server/lib/metrics.ts, decision 126)
  if (env.metrics) app.use(observePlatform(platformVersion(env)));

  // the request's id on the answer and on its log lines, and one line per request: method, path
  // (no query: it can hold names), status, time (docs/decisions/125)
  app.use(requestLogging(log));
  app.use(apiAnswerHeaders);

  // the Host and, on /dev, the caller's site and content type: refused before any body is read
  app.use(requestGuard(env, log));
  // a body of a type its endpoint does not take: 415, before it is read (decision 182)
  app.use(bodyTypeGuard(log));

  app.use(express.json({ limit: "1mb" }));

  app.use(answerRequest(dispatch));

  // express.json's refusals (bad JSON, too large) and anything unexpected
  app.use(errorAnswer(log));

  return app;
}
