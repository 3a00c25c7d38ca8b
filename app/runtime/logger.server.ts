import { type DestinationStream, type Level, type Logger, pino } from "pino";
import { env, type LogLevel } from "./env.server";
import { currentRequestId } from "./request-id.server";

// One JSON line per event, through pino (docs/decisions/125): `time` (ISO), `level` (its name),
// `message`, the fields, and the id of the request being served (`requestId`), if any. Debug and
// info lines go to stdout, warnings and errors to stderr. Secrets, codes and cookies given in the
// fields are written as "[Redacted]", never their value. The portal's server
// (scripts/portal-server.mjs) writes its own lines with this logger, from the server build's entry.

type Fields = Record<string, unknown>;

/** Fields whose value is never written: at the top of a line's fields, or in its `body`. */
export const SECRET_FIELDS = [
  "password",
  "currentPassword",
  "current_password",
  "newPassword",
  "new_password",
  "oldPassword",
  "secret",
  "secrets",
  "token_secret",
  "sessionSecret",
  "code",
  "otp",
  "securityCode",
  "answer",
  "answers",
  "memorableWord",
  "memorable_word",
  "characters",
  "token",
  "sessionToken",
  "XPLANID",
  "login_ticket",
  "cookie",
  "set-cookie",
  "authorization",
];
/** Headers whose value is never written, in a line's `headers`, `req.headers` or `res.headers`. */
export const SECRET_HEADERS = [
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

/**
 * The paths pino redacts, each named in full: a wildcard path costs pino's redaction some 30 times
 * as much per line (285 µs instead of 11, docs/decisions/125).
 */
export function redactPaths(): string[] {
  return [
    ...SECRET_FIELDS.flatMap((field) => [member(field).replace(/^\./, ""), `body${member(field)}`]),
    ...["headers", "req.headers", "res.headers"].flatMap((at) =>
      SECRET_HEADERS.map((header) => `${at}${member(header)}`),
    ),
  ];
}

/** The logger's options, shared by the portal's app and its server. */
export function loggerOptions(level: LogLevel) {
  return {
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
  };
}

/** Lines at warn and above to stderr, the rest to stdout (as collectors read the portal's streams). */
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
export function createLogger(level: LogLevel, destination?: DestinationStream): Logger {
  return pino(loggerOptions(level), destination ?? standardStreams());
}

/** The portal's lines with the message first and the fields after, as its callers write them. */
export function messageFirst(log: Logger) {
  const at = (level: Level) => (message: string, fields?: Fields) => {
    if (fields) log[level](fields, message);
    else log[level](message);
  };
  return {
    debug: at("debug"),
    info: at("info"),
    /** A refusal of a request (too large, malformed, over a limit): the caller's doing, not a fault of the portal. */
    warn: at("warn"),
    error: at("error"),
  };
}

export const pinoLogger = createLogger(env.logLevel);

export const logger = messageFirst(pinoLogger);
