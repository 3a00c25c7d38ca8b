import type { NextFunction, Request, Response } from "express";
import { type DestinationStream, type Logger, pino } from "pino";
import type { PlatformEnv, PlatformLogLevel } from "../env";
import { currentRequestId, REQUEST_ID_HEADER, requestIdOf, runWithRequestId } from "./request-id";

// The platform's logs (docs/decisions/125): pino's JSON lines, in the portal's shape (`time` ISO,
// `level` by name, `message`, fields), each with the id of the request being served (`requestId`);
// debug and info on stdout, warnings and errors on stderr. Passwords, secrets, codes, answers,
// tokens and cookies given in the fields (or their `body`, or `headers`) are written as "[Redacted]".

export type PlatformLogger = Logger;

/** Fields whose value is never written: at the top of a line's fields, or in its `body`. */
const SECRET_FIELDS = [
  "password",
  "currentPassword",
  "current_password",
  "newPassword",
  "new_password",
  "oldPassword",
  "secret",
  "token_secret",
  "code",
  "otp",
  "answer",
  "answers",
  "memorableWord",
  "memorable_word",
  "token",
  "XPLANID",
  "login_ticket",
  "cookie",
  "set-cookie",
  "authorization",
];
/** Headers whose value is never written, in a line's `headers`, `req.headers` or `res.headers`. */
const SECRET_HEADERS = [
  "cookie",
  "set-cookie",
  "authorization",
  "x-caller-key",
  "Cookie",
  "Set-Cookie",
  "Authorization",
  "X-Caller-Key",
];

const member = (field: string) => (/^[A-Za-z_$][\w$]*$/.test(field) ? `.${field}` : `["${field}"]`);

/** The paths pino redacts, each named in full (a wildcard path costs some 30 times as much per line). */
function redactPaths(): string[] {
  return [
    ...SECRET_FIELDS.flatMap((field) => [member(field).replace(/^\./, ""), `body${member(field)}`]),
    ...["headers", "req.headers", "res.headers"].flatMap((at) =>
      SECRET_HEADERS.map((header) => `${at}${member(header)}`),
    ),
  ];
}

/** The level of the platform's logs: PLATFORM_LOG_LEVEL, else info, or error only under NODE_ENV=test (quiet journeys). */
export function logLevelOf(env: PlatformEnv): PlatformLogLevel {
  return env.logLevel ?? (env.nodeEnv === "test" ? "error" : "info");
}

function standardStreams(): DestinationStream {
  return pino.multistream(
    [
      { level: "trace", stream: pino.destination({ dest: 1, sync: true }) },
      { level: "warn", stream: pino.destination({ dest: 2, sync: true }) },
    ],
    { dedupe: true },
  );
}

/** A logger at `level` writing to `destination` (tests) or to stdout and stderr. */
export function createLogger(level: PlatformLogLevel, destination?: DestinationStream): PlatformLogger {
  return pino(
    {
      level,
      messageKey: "message",
      base: { pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label: string) => ({ level: label }) },
      redact: { paths: redactPaths() },
      mixin: () => {
        const requestId = currentRequestId();
        return requestId === undefined ? {} : { requestId };
      },
    },
    destination ?? standardStreams(),
  );
}

/**
 * The first middleware: the request's id (the caller's X-Request-Id when sane, else a new one) on
 * the answer and on every line logged while the request is served, and one line per request when
 * it is answered: method, path (no query: it can hold names), status, time.
 */
export function requestLogging(log: PlatformLogger) {
  return (req: Request, res: Response, next: NextFunction) => {
    const requestId = requestIdOf(req.headers["x-request-id"]);
    const started = performance.now();
    res.setHeader(REQUEST_ID_HEADER, requestId);
    res.on("finish", () => {
      log.info(
        {
          method: req.method,
          path: req.path,
          status: res.statusCode,
          ms: Math.round(performance.now() - started),
          requestId,
        },
        "request",
      );
    });
    runWithRequestId(requestId, next);
  };
}
