import pRetry from "p-retry";
import { request as undiciRequest } from "undici";
import { z } from "zod/v4";
import { env } from "~/runtime/env.server";
import { type Failure, toFailure } from "~/lib/error-catalogue";
import { logger } from "~/runtime/logger.server";
import { platformCallObserved, type PlatformCallObserver } from "~/runtime/metrics.server";
import { platformCallStarted } from "~/runtime/platform-timing.server";
import { currentRequestId, REQUEST_ID_HEADER } from "~/runtime/request-id.server";
import { originHeaders } from "~/runtime/request-origin.server";
import { platformStandIn } from "./platform-stand-in.server";

/** Whether a status is the platform's answered refusal (4xx, or a redirect taken as 401): expected, not a fault. */
function isRefusal(status: number): boolean {
  return status > 0 && status < 500;
}

/**
 * A failed platform call: the status (0 when the platform did not answer) and its messages.
 * A refusal the platform answered (a 404 for what is not there, a 403, a 409...) is an expected
 * outcome that pages turn into an answer of their own, and its stack would only name the planning
 * client's own frames: it is made without one, which V8 would otherwise capture for every refusal
 * (docs/decisions/132). A fault (no answer, a 5xx, a broken contract) keeps its stack for the log.
 */
export class PlanningError extends Error {
  constructor(
    readonly status: number,
    readonly apiMessage: string | null,
    readonly userMessage: string | null = null,
    /** The whole error body, for the few calls whose refusals carry data (sign-in steps). */
    readonly body: unknown = null,
  ) {
    const stackTraceLimit = Error.stackTraceLimit;
    if (isRefusal(status)) Error.stackTraceLimit = 0;
    try {
      super(`planning platform answered ${status}${apiMessage ? `: ${apiMessage}` : ""}`);
    } finally {
      Error.stackTraceLimit = stackTraceLimit;
    }
    this.name = "PlanningError";
  }
  get failure(): Failure {
    return toFailure(this.status, this.apiMessage);
  }
}

/** Whether a failure is the platform ending the session (signed out, expired): the page signs the user out. */
export function isLostSession(error: unknown): error is PlanningError {
  return error instanceof PlanningError && error.failure.kind === "lost-session";
}

type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
type Query = Record<string, string | number | boolean | null | undefined | Array<string | number>>;

export type CallOptions = { query?: Query; body?: unknown; retry?: boolean };

export type PlanningClientOptions = {
  /** The platform session (XPLANID) once signed in. */
  token?: string | null;
  baseUrl?: string;
  timeoutMs?: number;
  retryDelayMs?: number;
  /** A stand-in for the platform (tests): called as `fetch(url, init)`, instead of undici's request. */
  fetch?: typeof fetch;
};

type Transport = Required<Omit<PlanningClientOptions, "token" | "fetch">> & {
  token: string | null;
  fetch: typeof fetch | null;
};

// Every answer is checked with a zod 4 schema (`zod/v4`, much faster than zod 3 on large answers:
// docs/decisions/159); the forms keep zod 3, which Conform's adapter reads.
export type BatchItems = Record<string, { method?: Method; url: string; body?: unknown; schema: z.ZodType }>;

const BatchAnswer = z.array(
  z.object({ name: z.string(), code: z.number(), msg: z.string().nullish(), body: z.string().nullish() }),
);

const ATTEMPTS = 3; // spec 000 §7: up to 3 attempts, 500 ms × attempt, none on 404
const IDEMPOTENT: readonly Method[] = ["GET", "PUT", "DELETE"];

export function buildUrl(baseUrl: string, path: string, query?: Query): string {
  const url = new URL(path.replace(/^\/+/, ""), `${baseUrl}/`);
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value === undefined || value === null || value === "") continue;
    if (Array.isArray(value)) value.forEach((v, i) => url.searchParams.append(`${key}.${i}`, String(v)));
    else url.searchParams.set(key, String(value));
  }
  return url.toString();
}

/**
 * spec 000 §7: how many times a call may be sent again. Only idempotent calls are repeated (a POST
 * only when its caller says it is a read, a batch of GETs; `retry: false` never).
 */
function retriesOf(method: Method, retry: boolean | undefined): number {
  if (retry === false) return 0;
  return retry === true || IDEMPOTENT.includes(method) ? ATTEMPTS - 1 : 0;
}

/** Only when the platform did not answer or failed itself: repeating a 4xx (a 404, a refusal) cannot change its answer. */
function worthRepeating(error: unknown): boolean {
  return error instanceof PlanningError && (error.status === 0 || error.status >= 500);
}

function parseText(text: string): unknown {
  if (!text) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** A batch item's answer, itself JSON in a string; broken JSON breaks the contract (502). */
function parseItemBody(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new PlanningError(502, null);
  }
}

function messagesOf(body: unknown): { api: string | null; user: string | null } {
  if (body && typeof body === "object") {
    const b = body as Record<string, unknown>;
    return {
      api: typeof b.api_message === "string" ? b.api_message : null,
      user: typeof b.user_message === "string" ? b.user_message : null,
    };
  }
  return { api: null, user: null };
}

/** The header the platform authenticates its caller by (its PLATFORM_CALLER_KEYS, docs/decisions/186). */
const CALLER_KEY_HEADER = "x-caller-key";

/** The portal's key for the platform (PLANNING_API_KEY), on every call it makes, or nothing when none is set. */
export function callerKeyHeaders(): Record<string, string> {
  return env.planningApiKey ? { [CALLER_KEY_HEADER]: env.planningApiKey } : {};
}

function headersOf(token: string | null, json: boolean): Record<string, string> {
  const headers: Record<string, string> = {
    accept: "application/json",
    "x-xplan-app-id": env.appId,
    "x-xplan-auth-failure-action": "error",
    ...callerKeyHeaders(),
  };
  if (json) headers["content-type"] = "application/json";
  if (token) headers.cookie = `XPLANID=${token}`;
  const requestId = currentRequestId();
  if (requestId) headers[REQUEST_ID_HEADER.toLowerCase()] = requestId;
  // where the request came from: the platform keeps it with the session (docs/decisions/170) and
  // names it in the notices it sends the owner (docs/decisions/164)
  Object.assign(headers, originHeaders());
  return headers;
}

/** One call as it is sent, each attempt alike. */
type Outgoing = { method: Method; url: string; headers: Record<string, string>; body: string | undefined };

/** An attempt's answer once its headers are in: its status, its body to read, or the whole answer to pass on. */
type Answer = { status: number; text: () => Promise<string>; response: () => Response };

/**
 * One attempt through undici's request (its Dispatcher API: no Request, Response or stream tee
 * per call, a third of a page's CPU before; issue 38). A redirect is not followed.
 */
async function undiciAnswer(outgoing: Outgoing, signal: AbortSignal): Promise<Answer> {
  const { statusCode, headers, body } = await undiciRequest(outgoing.url, {
    method: outgoing.method,
    headers: outgoing.headers,
    body: outgoing.body,
    signal,
  });
  return {
    status: statusCode,
    text: () => body.text(),
    response: () => {
      const passed = new Headers();
      for (const [name, value] of Object.entries(headers)) {
        if (Array.isArray(value)) for (const v of value) passed.append(name, v);
        else if (value !== undefined) passed.set(name, value);
      }
      const empty = statusCode === 204 || statusCode === 304;
      if (empty) body.dump().catch(() => undefined);
      // undici's own web stream of the body (Node's Readable.toWeb throws, uncaught, when its reader
      // is cancelled while data still arrives)
      return new Response(empty ? null : body.body, {
        status: statusCode,
        headers: passed,
      });
    },
  };
}

/** One attempt through a stand-in's fetch (tests), called with the URL and a plain init. */
async function fetchedAnswer(fetchImpl: typeof fetch, outgoing: Outgoing, signal: AbortSignal): Promise<Answer> {
  const response = await fetchImpl(outgoing.url, {
    method: outgoing.method,
    headers: outgoing.headers,
    body: outgoing.body,
    redirect: "manual",
    signal,
  });
  return {
    status: response.status,
    text: () => response.text(),
    response: () => response,
  };
}

/** The failure of an answer that is not 2xx, with the platform's messages and its whole body. */
async function answeredFailure(answer: Answer): Promise<PlanningError> {
  const errorBody = parseText(await answer.text().catch(() => ""));
  const { api, user } = messagesOf(errorBody);
  // A redirect from the platform means it wanted a session we did not have.
  const status = answer.status >= 300 && answer.status < 400 ? 401 : answer.status;
  return new PlanningError(
    status,
    api ?? (status === 401 ? "This feature is not available without a valid session" : null),
    user,
    errorBody,
  );
}

type CallLog = { method: Method; path: string; attempt: number };

/** The platform's answer to one attempt, its headers in; no answer at all is a PlanningError of status 0. */
async function answerOf(
  transport: Transport,
  outgoing: Outgoing,
  signal: AbortSignal,
  observed: PlatformCallObserver,
  call: CallLog,
): Promise<Answer> {
  const started = Date.now();
  try {
    const answer = transport.fetch
      ? await fetchedAnswer(transport.fetch, outgoing, signal)
      : await undiciAnswer(outgoing, signal);
    logger.debug("planning call", { ...call, status: answer.status, ms: Date.now() - started });
    return answer;
  } catch (error) {
    observed.answered(error);
    logger.error("planning call failed", { ...call, error: String(error) });
    throw new PlanningError(0, null);
  }
}

/** What a call takes of a 2xx answer within its attempt, and so within the attempt's time limit. */
type Take<T> = (answer: Answer, observed: PlatformCallObserver, call: CallLog) => Promise<T>;

/** The body, read within the attempt: an answer cut off or timed out while it is read counts as no answer (status 0). */
const readText: Take<string> = async (answer, observed, call) => {
  try {
    const text = await answer.text();
    observed.answered(answer.status);
    return text;
  } catch (error) {
    observed.answered(error);
    logger.error("planning answer cut off", { ...call, error: String(error) });
    throw new PlanningError(0, null);
  }
};

/** The answer passed on unread (a document streamed to the browser at the browser's pace). */
const passOn: Take<Answer> = async (answer, observed) => {
  observed.answered(answer.status);
  return answer;
};

/**
 * One attempt: the platform's answer, checked (one that is not 2xx throws its PlanningError, its
 * body read), then taken, with the attempt's own time limit, its metrics and its log. Every failure
 * is a PlanningError, which the retry rule weighs. The limit covers what `take` reads and a
 * refusal's body; an answer passed on unread keeps no limit once its headers are in
 * (docs/decisions/150).
 */
async function attemptOnce<T>(
  transport: Transport,
  outgoing: Outgoing,
  observed: PlatformCallObserver,
  call: CallLog,
  take: Take<T>,
): Promise<T> {
  observed.attempt();
  const limit = new AbortController();
  const timer = setTimeout(
    () => limit.abort(new DOMException("The platform did not answer in time.", "TimeoutError")),
    transport.timeoutMs,
  );
  timer.unref();
  try {
    const answer = await answerOf(transport, outgoing, limit.signal, observed, call);
    if (answer.status < 200 || answer.status >= 300) {
      const failure = await answeredFailure(answer);
      observed.answered(answer.status);
      throw failure;
    }
    return await take(answer, observed, call);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Sends one call with the spec's retries (p-retry: up to 3 attempts, 500 ms and then 1,000 ms
 * apart, that is 500 ms × the attempt) and answers what `take` takes of its 2xx answer; throws
 * PlanningError otherwise. The request's time waiting for the platform
 * (Server-Timing) counts the retries; each attempt's time and outcome and the retries go to the
 * metrics (docs/decisions/126).
 */
async function exchange<T>(
  transport: Transport,
  method: Method,
  path: string,
  opts: CallOptions,
  take: Take<T>,
): Promise<T> {
  const finished = platformCallStarted();
  const observed = platformCallObserved(method, path);
  const outgoing: Outgoing = {
    method,
    url: buildUrl(transport.baseUrl, path, opts.query),
    headers: headersOf(transport.token, opts.body !== undefined),
    body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
  };
  try {
    return await pRetry((attempt) => attemptOnce(transport, outgoing, observed, { method, path, attempt }, take), {
      retries: retriesOf(method, opts.retry),
      minTimeout: transport.retryDelayMs,
      factor: 2,
      randomize: false,
      shouldRetry: ({ error }) => worthRepeating(error),
    });
  } finally {
    finished();
  }
}

/** The platform's batch request for several calls (spec 000 §7: a batch of reads may be sent again). */
function batchRequest(items: BatchItems): CallOptions {
  const names = Object.keys(items);
  return {
    body: {
      batch: names.map((name) => ({
        name,
        method: items[name]!.method ?? "GET",
        url: items[name]!.url.replace(/^\/+/, ""),
        body: items[name]!.body,
      })),
    },
    retry: names.every((name) => (items[name]!.method ?? "GET") === "GET"),
  };
}

type BatchAnswerItem = z.output<typeof BatchAnswer>[number];

/** The batch's answer as a list of items; anything else breaks the contract (502). */
function batchItemsOf(answers: unknown): BatchAnswerItem[] {
  const parsed = BatchAnswer.safeParse(answers);
  if (!parsed.success) throw new PlanningError(502, null);
  return parsed.data;
}

/** One item's answer validated with its schema, or the PlanningError a call alone would have thrown. */
function itemAnswer(name: string, item: BatchItems[string], answer: BatchAnswerItem | undefined): unknown {
  if (!answer) throw new PlanningError(502, null);
  const body = answer.body ? parseItemBody(answer.body) : null;
  if (answer.code < 200 || answer.code >= 300) {
    const { api, user } = messagesOf(body);
    throw new PlanningError(answer.code, api ?? answer.msg ?? null, user);
  }
  const value = item.schema.safeParse(body);
  if (!value.success) {
    logger.error("planning batch answer did not match the contract", { name, url: item.url });
    throw new PlanningError(502, null);
  }
  return value.data;
}

/** Each batch item's answer validated with its schema; the first failed item fails the whole call. */
function batchAnswers<T extends BatchItems>(items: T, answers: unknown): { [K in keyof T]: z.output<T[K]["schema"]> } {
  const list = batchItemsOf(answers);
  const out: Record<string, unknown> = {};
  for (const name of Object.keys(items))
    out[name] = itemAnswer(
      name,
      items[name]!,
      list.find((a) => a.name === name),
    );
  return out as { [K in keyof T]: z.output<T[K]["schema"]> };
}

/** A batch item's outcome on its own: its answer, or the error a call alone would have thrown. */
export type Settled<V> = { ok: true; value: V } | { ok: false; error: PlanningError };

/**
 * Each batch item's outcome on its own (decision 175): a page's calls that fail apart, as they
 * would have as separate calls, in one round trip. A lost session in any item is the whole call's.
 */
function settledAnswers<T extends BatchItems>(
  items: T,
  answers: unknown,
): { [K in keyof T]: Settled<z.output<T[K]["schema"]>> } {
  const list = batchItemsOf(answers);
  const out: Record<string, Settled<unknown>> = {};
  for (const name of Object.keys(items)) {
    try {
      out[name] = {
        ok: true,
        value: itemAnswer(
          name,
          items[name]!,
          list.find((a) => a.name === name),
        ),
      };
    } catch (error) {
      if (!(error instanceof PlanningError)) throw error;
      if (isLostSession(error)) throw error;
      out[name] = { ok: false, error };
    }
  }
  return out as { [K in keyof T]: Settled<z.output<T[K]["schema"]>> };
}

export function createPlanningClient(options: PlanningClientOptions = {}) {
  const transport: Transport = {
    token: options.token ?? null,
    baseUrl: options.baseUrl ?? env.planningApiUrl,
    timeoutMs: options.timeoutMs ?? env.planningTimeoutMs,
    retryDelayMs: options.retryDelayMs ?? 500,
    // a stand-in for the platform (tests): the client's own, or a replaced process fetch
    fetch: options.fetch ?? platformStandIn(),
  };

  /** A call whose answer says nothing but its status: its body is read and dropped within the attempt. */
  async function exec(method: Method, path: string, opts: CallOptions = {}): Promise<void> {
    await exchange(transport, method, path, opts, readText);
  }

  /** Sends one call with retries; answers the raw Response of a 2xx (its body for the caller to read or pass on), throws PlanningError otherwise. */
  async function send(method: Method, path: string, opts: CallOptions = {}): Promise<Response> {
    return (await exchange(transport, method, path, opts, passOn)).response();
  }

  async function call<S extends z.ZodType>(
    method: Method,
    path: string,
    schema: S,
    opts?: CallOptions,
  ): Promise<z.output<S>> {
    const body = parseText(await exchange(transport, method, path, opts ?? {}, readText));
    const parsed = schema.safeParse(body);
    if (!parsed.success) {
      logger.error("planning answer did not match the contract", {
        method,
        path,
        issues: parsed.error.issues.slice(0, 5).map((i) => `${i.path.join(".")}: ${i.message}`),
      });
      throw new PlanningError(502, null);
    }
    return parsed.data as z.output<S>;
  }

  /** One round trip for several calls (the platform's batch endpoint). */
  async function batch<T extends BatchItems>(items: T): Promise<{ [K in keyof T]: z.output<T[K]["schema"]> }> {
    const answers = parseText(await exchange(transport, "POST", "resourceful", batchRequest(items), readText));
    return batchAnswers(items, answers);
  }

  /** One round trip for several calls whose failures are each their own (`Settled`). */
  async function batchSettled<T extends BatchItems>(
    items: T,
  ): Promise<{ [K in keyof T]: Settled<z.output<T[K]["schema"]>> }> {
    if (!Object.keys(items).length) return {} as { [K in keyof T]: Settled<z.output<T[K]["schema"]>> };
    const answers = parseText(await exchange(transport, "POST", "resourceful", batchRequest(items), readText));
    return settledAnswers(items, answers);
  }

  return {
    /**
     * Keys for answers kept in memory (kept-answers.server.ts): the platform's, for what is the
     * same for everyone; the platform's and the session's, for what is the session's own.
     */
    keys: {
      site: transport.baseUrl,
      session: `${transport.baseUrl} ${transport.token ?? ""}`,
    },
    send,
    batch,
    batchSettled,
    get: <S extends z.ZodType>(path: string, schema: S, opts?: CallOptions) => call("GET", path, schema, opts),
    post: <S extends z.ZodType>(path: string, schema: S, opts?: CallOptions) => call("POST", path, schema, opts),
    put: <S extends z.ZodType>(path: string, schema: S, opts?: CallOptions) => call("PUT", path, schema, opts),
    patch: <S extends z.ZodType>(path: string, schema: S, opts?: CallOptions) => call("PATCH", path, schema, opts),
    exec,
    delete: (path: string, opts?: CallOptions) => exec("DELETE", path, opts),
  };
}

export type PlanningClient = ReturnType<typeof createPlanningClient>;
