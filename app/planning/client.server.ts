import ky, { type Input, type RetryOptions } from "ky";
import { z } from "zod";
import { env } from "~/runtime/env.server";
import { type Failure, toFailure } from "~/lib/error-catalogue";
import { logger } from "~/runtime/logger.server";
import { platformCallObserved, type PlatformCallObserver } from "~/runtime/metrics.server";
import { platformCallStarted } from "~/runtime/platform-timing.server";
import { currentRequestId, REQUEST_ID_HEADER } from "~/runtime/request-id.server";

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
  fetch?: typeof fetch;
};

type Transport = Required<Omit<PlanningClientOptions, "token">> & { token: string | null };

type BatchItems = Record<string, { method?: Method; url: string; body?: unknown; schema: z.ZodTypeAny }>;

const BatchAnswer = z.array(
  z.object({ name: z.string(), code: z.number(), msg: z.string().nullish(), body: z.string().nullish() }),
);

const ATTEMPTS = 3; // spec 000 §7: up to 3 attempts, 500 ms × attempt, none on 404
const IDEMPOTENT: RetryOptions["methods"] = ["get", "put", "delete"];

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
 * spec 000 §7 as ky's retry options: up to 3 attempts, 500 ms × the attempt apart. Only idempotent
 * calls are repeated (a POST only when its caller says it is a read, a batch of GETs; `retry: false`
 * never), and only when the platform did not answer or failed itself: repeating a 4xx (a 404, a
 * refusal) cannot change its answer.
 */
function retryRule(method: Method, retry: boolean | undefined, delayMs: number): RetryOptions {
  return {
    limit: retry === false ? 0 : ATTEMPTS - 1,
    methods: retry === true ? [method.toLowerCase()] : IDEMPOTENT,
    delay: (attempt) => delayMs * attempt,
    shouldRetry: ({ error }) => error instanceof PlanningError && (error.status === 0 || error.status >= 500),
  };
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
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

function headersOf(token: string | null): Headers {
  const h = new Headers({
    Accept: "application/json",
    "X-Xplan-App-Id": env.appId,
    "X-Xplan-Auth-Failure-Action": "error",
  });
  if (token) h.set("Cookie", `XPLANID=${token}`);
  const requestId = currentRequestId();
  if (requestId) h.set(REQUEST_ID_HEADER, requestId);
  return h;
}

/** The failure of an answer that is not 2xx, with the platform's messages and its whole body. */
async function answeredFailure(response: Response): Promise<PlanningError> {
  const errorBody = await readBody(response).catch(() => null);
  const { api, user } = messagesOf(errorBody);
  // A redirect from the platform means it wanted a session we did not have.
  const status = response.status >= 300 && response.status < 400 ? 401 : response.status;
  return new PlanningError(
    status,
    api ?? (status === 401 ? "This feature is not available without a valid session" : null),
    user,
    errorBody,
  );
}

/**
 * ky's request as the URL and a plain init, which is how the platform's fetch has always been
 * called (the tests' stand-ins for the platform read the method and body from the init).
 */
async function plainInit(request: Request, signal: AbortSignal): Promise<RequestInit> {
  return {
    method: request.method,
    headers: request.headers,
    body: request.body ? await request.text() : undefined,
    redirect: request.redirect,
    signal,
  };
}

type CallLog = { method: Method; path: string; attempt: number };

/** The platform's answer to one attempt, unchecked; no answer at all is a PlanningError of status 0. */
async function fetchAnswer(
  transport: Transport,
  request: Request,
  signal: AbortSignal,
  observed: PlatformCallObserver,
  call: CallLog,
): Promise<Response> {
  const started = Date.now();
  try {
    const response = await transport.fetch(request.url, await plainInit(request, signal));
    logger.debug("planning call", { ...call, status: response.status, ms: Date.now() - started });
    return response;
  } catch (error) {
    observed.answered(error);
    logger.error("planning call failed", { ...call, error: String(error) });
    throw new PlanningError(0, null);
  }
}

/**
 * Checks an attempt's answer: one that is not 2xx throws its PlanningError. With `buffered`, the
 * body is read within the attempt and handed on read: an answer cut off or timed out while its
 * body is read counts as no answer (status 0).
 */
async function checkedAnswer(
  response: Response,
  observed: PlatformCallObserver,
  call: CallLog,
  buffered: boolean,
): Promise<Response> {
  if (!response.ok) {
    const failure = await answeredFailure(response);
    observed.answered(response.status);
    throw failure;
  }
  if (!buffered) {
    observed.answered(response.status);
    return response;
  }
  try {
    const text = await response.text();
    observed.answered(response.status);
    const { status, statusText, headers } = response;
    return new Response(text || null, { status, statusText, headers });
  } catch (error) {
    observed.answered(error);
    logger.error("planning answer cut off", { ...call, error: String(error) });
    throw new PlanningError(0, null);
  }
}

/**
 * One attempt (ky's fetch): the platform's answer, checked, with the attempt's own time limit, its
 * metrics and its log. Every failure is a PlanningError thrown here, where ky's retry rule weighs
 * it (an error thrown by ky's afterResponse hook is never retried). The limit covers a `buffered`
 * answer's body too (read within the attempt), and a refusal's. A 2xx answer passed on unread (a
 * document streamed to the browser, at the browser's pace) keeps no limit once its headers are in:
 * aborting a fetch whose body is being streamed on throws where nothing can catch it and ends the
 * process (nodejs/node#57360).
 */
function attemptFetch(
  transport: Transport,
  observed: PlatformCallObserver,
  call: { method: Method; path: string },
  buffered: boolean,
) {
  let attempt = 0;
  return async (input: Input, init?: RequestInit): Promise<Response> => {
    const request = input instanceof Request ? input : new Request(input, init);
    attempt++;
    observed.attempt();
    const limit = new AbortController();
    const timer = setTimeout(
      () => limit.abort(new DOMException("The platform did not answer in time.", "TimeoutError")),
      transport.timeoutMs,
    );
    timer.unref();
    try {
      const response = await fetchAnswer(transport, request, limit.signal, observed, { ...call, attempt });
      return await checkedAnswer(response, observed, { ...call, attempt }, buffered);
    } finally {
      clearTimeout(timer);
    }
  };
}

/**
 * Sends one call with the spec's retries (ky) and answers its 2xx Response (its body already read
 * when `buffered`); throws PlanningError otherwise. The request's time waiting for the platform
 * (Server-Timing) counts the retries; each attempt's time and outcome and the retries go to the
 * metrics (docs/decisions/126).
 */
async function exchange(
  transport: Transport,
  method: Method,
  path: string,
  opts: CallOptions,
  buffered: boolean,
): Promise<Response> {
  const finished = platformCallStarted();
  const observed = platformCallObserved(method, path);
  try {
    return await ky(buildUrl(transport.baseUrl, path, opts.query), {
      method,
      headers: headersOf(transport.token),
      json: opts.body,
      redirect: "manual",
      timeout: false, // each attempt has its own (attemptFetch)
      retry: retryRule(method, opts.retry, transport.retryDelayMs),
      fetch: attemptFetch(transport, observed, { method, path }, buffered),
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

/** Each batch item's answer validated with its schema; the first failed item fails the whole call. */
function batchAnswers<T extends BatchItems>(items: T, answers: unknown): { [K in keyof T]: z.output<T[K]["schema"]> } {
  const parsed = BatchAnswer.safeParse(answers);
  if (!parsed.success) throw new PlanningError(502, null);
  const out: Record<string, unknown> = {};
  for (const name of Object.keys(items)) {
    const answer = parsed.data.find((a) => a.name === name);
    if (!answer) throw new PlanningError(502, null);
    const body = answer.body ? parseItemBody(answer.body) : null;
    if (answer.code < 200 || answer.code >= 300) {
      const { api, user } = messagesOf(body);
      throw new PlanningError(answer.code, api ?? answer.msg ?? null, user);
    }
    const value = items[name]!.schema.safeParse(body);
    if (!value.success) {
      logger.error("planning batch answer did not match the contract", { name, url: items[name]!.url });
      throw new PlanningError(502, null);
    }
    out[name] = value.data;
  }
  return out as { [K in keyof T]: z.output<T[K]["schema"]> };
}

export function createPlanningClient(options: PlanningClientOptions = {}) {
  const transport: Transport = {
    token: options.token ?? null,
    baseUrl: options.baseUrl ?? env.planningApiUrl,
    timeoutMs: options.timeoutMs ?? env.planningTimeoutMs,
    retryDelayMs: options.retryDelayMs ?? 500,
    fetch: options.fetch ?? fetch,
  };

  /** Sends one call with retries; answers the raw Response of a 2xx, throws PlanningError otherwise. */
  function send(method: Method, path: string, opts: CallOptions = {}): Promise<Response> {
    return exchange(transport, method, path, opts, false);
  }

  async function call<S extends z.ZodTypeAny>(
    method: Method,
    path: string,
    schema: S,
    opts?: CallOptions,
  ): Promise<z.output<S>> {
    const body = await readBody(await exchange(transport, method, path, opts ?? {}, true));
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
    const answers = await readBody(await exchange(transport, "POST", "resourceful", batchRequest(items), true));
    return batchAnswers(items, answers);
  }

  return {
    send,
    batch,
    get: <S extends z.ZodTypeAny>(path: string, schema: S, opts?: CallOptions) => call("GET", path, schema, opts),
    post: <S extends z.ZodTypeAny>(path: string, schema: S, opts?: CallOptions) => call("POST", path, schema, opts),
    put: <S extends z.ZodTypeAny>(path: string, schema: S, opts?: CallOptions) => call("PUT", path, schema, opts),
    patch: <S extends z.ZodTypeAny>(path: string, schema: S, opts?: CallOptions) => call("PATCH", path, schema, opts),
    delete: async (path: string, opts?: CallOptions) => {
      await send("DELETE", path, opts);
    },
  };
}

export type PlanningClient = ReturnType<typeof createPlanningClient>;
