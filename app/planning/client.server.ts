import { z } from "zod";
import { env } from "~/runtime/env.server";
import { type Failure, toFailure } from "~/lib/error-catalogue";
import { logger } from "~/runtime/logger.server";
import { platformCallObserved } from "~/runtime/metrics.server";
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

const BatchAnswer = z.array(
  z.object({ name: z.string(), code: z.number(), msg: z.string().nullish(), body: z.string().nullish() }),
);

const ATTEMPTS = 3; // spec 000 §7: up to 3 attempts, 500 ms × attempt, none on 404

export function buildUrl(baseUrl: string, path: string, query?: Query): string {
  const url = new URL(path.replace(/^\/+/, ""), `${baseUrl}/`);
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value === undefined || value === null || value === "") continue;
    if (Array.isArray(value)) value.forEach((v, i) => url.searchParams.append(`${key}.${i}`, String(v)));
    else url.searchParams.set(key, String(value));
  }
  return url.toString();
}

function shouldRetry(method: Method, status: number, retry: boolean | undefined): boolean {
  // Only idempotent calls are repeated, and only when the platform did not answer or failed
  // itself: repeating a 4xx cannot change its answer. A POST is repeated only when its caller
  // says it is a read (a batch of GETs).
  if ((method === "POST" || method === "PATCH") && retry !== true) return false;
  return status === 0 || status >= 500;
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

export function createPlanningClient(options: PlanningClientOptions = {}) {
  const baseUrl = options.baseUrl ?? env.planningApiUrl;
  const timeoutMs = options.timeoutMs ?? env.planningTimeoutMs;
  const retryDelayMs = options.retryDelayMs ?? 500;
  const doFetch = options.fetch ?? fetch;

  function headers(hasBody: boolean): Headers {
    const h = new Headers({
      Accept: "application/json",
      "X-Xplan-App-Id": env.appId,
      "X-Xplan-Auth-Failure-Action": "error",
    });
    if (hasBody) h.set("Content-Type", "application/json");
    if (options.token) h.set("Cookie", `XPLANID=${options.token}`);
    const requestId = currentRequestId();
    if (requestId) h.set(REQUEST_ID_HEADER, requestId);
    return h;
  }

  /** Sends one call with retries; answers the raw Response of a 2xx, throws PlanningError otherwise. */
  function send(method: Method, path: string, opts: CallOptions = {}): Promise<Response> {
    return exchange(method, path, opts, async (response) => response);
  }

  /**
   * Sends one call with retries and reads a 2xx answer with `read`. An answer cut off or timed out
   * while `read` takes its body counts as no answer (status 0), retried like one.
   */
  async function exchange<T>(
    method: Method,
    path: string,
    opts: CallOptions,
    read: (response: Response) => Promise<T>,
  ): Promise<T> {
    // The request's time waiting for the platform (Server-Timing), retries included.
    const finished = platformCallStarted();
    try {
      return await attempts(method, path, opts, read);
    } finally {
      finished();
    }
  }

  async function attempts<T>(
    method: Method,
    path: string,
    opts: CallOptions,
    read: (response: Response) => Promise<T>,
  ): Promise<T> {
    const url = buildUrl(baseUrl, path, opts.query);
    const mayRetry = (attempt: number, status: number) =>
      opts.retry !== false && attempt < ATTEMPTS && status !== 404 && shouldRetry(method, status, opts.retry);
    const hasBody = opts.body !== undefined;
    // Made only when an attempt fails: most calls succeed, and an error costs its stack.
    let lastError: PlanningError | undefined;
    // Each attempt's time and outcome, and the retries, for the metrics (docs/decisions/126).
    const observed = platformCallObserved(method, path);
    for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
      observed.attempt();
      const started = Date.now();
      let response: Response;
      try {
        response = await doFetch(url, {
          method,
          headers: headers(hasBody),
          body: hasBody ? JSON.stringify(opts.body) : undefined,
          signal: AbortSignal.timeout(timeoutMs),
          redirect: "manual",
        });
      } catch (error) {
        observed.answered(error);
        logger.error("planning call failed", { method, path, attempt, error: String(error) });
        lastError = new PlanningError(0, null);
        if (!mayRetry(attempt, 0)) throw lastError;
        await new Promise((r) => setTimeout(r, retryDelayMs * attempt));
        continue;
      }
      logger.debug("planning call", { method, path, status: response.status, ms: Date.now() - started });
      if (response.ok) {
        try {
          const answer = await read(response);
          observed.answered(response.status);
          return answer;
        } catch (error) {
          observed.answered(error instanceof PlanningError ? response.status : error);
          if (error instanceof PlanningError) throw error;
          logger.error("planning answer cut off", { method, path, attempt, error: String(error) });
          lastError = new PlanningError(0, null);
          if (!mayRetry(attempt, 0)) throw lastError;
          await new Promise((r) => setTimeout(r, retryDelayMs * attempt));
          continue;
        }
      }
      const errorBody = await readBody(response).catch(() => null);
      observed.answered(response.status);
      const { api, user } = messagesOf(errorBody);
      // A redirect from the platform means it wanted a session we did not have.
      const status = response.status >= 300 && response.status < 400 ? 401 : response.status;
      lastError = new PlanningError(
        status,
        api ?? (status === 401 ? "This feature is not available without a valid session" : null),
        user,
        errorBody,
      );
      if (!mayRetry(attempt, status)) throw lastError;
      await new Promise((r) => setTimeout(r, retryDelayMs * attempt));
    }
    throw lastError ?? new PlanningError(0, null);
  }

  async function call<S extends z.ZodTypeAny>(
    method: Method,
    path: string,
    schema: S,
    opts?: CallOptions,
  ): Promise<z.output<S>> {
    const body = await exchange(method, path, opts ?? {}, readBody);
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

  /**
   * One round trip for several calls (the platform's batch endpoint). Each item's answer is
   * validated with its schema; the first failed item fails the whole call.
   */
  async function batch<
    T extends Record<string, { method?: Method; url: string; body?: unknown; schema: z.ZodTypeAny }>,
  >(items: T): Promise<{ [K in keyof T]: z.output<T[K]["schema"]> }> {
    const names = Object.keys(items);
    const answers = await exchange(
      "POST",
      "resourceful",
      {
        body: {
          batch: names.map((name) => ({
            name,
            method: items[name]!.method ?? "GET",
            url: items[name]!.url.replace(/^\/+/, ""),
            body: items[name]!.body,
          })),
        },
        // spec 000 §7: page data is retried; a batch of reads may be sent again
        retry: names.every((name) => (items[name]!.method ?? "GET") === "GET"),
      },
      readBody,
    );
    const parsed = BatchAnswer.safeParse(answers);
    if (!parsed.success) throw new PlanningError(502, null);
    const out: Record<string, unknown> = {};
    for (const name of names) {
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
