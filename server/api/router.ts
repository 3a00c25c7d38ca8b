import type { Clock } from "../clock";
import type { Db } from "../db/connection";
import type { PlatformEnv } from "../env";
import { AUTH_STEPS, type AuthNote, logAuthDecision } from "../lib/auth-log";
import type { PlatformLogger } from "../lib/logger";
import { type RequestClient, toldClient, UNKNOWN_CLIENT } from "../lib/request-origin";
import { type Caller, findCaller, touchSession } from "../sessions";
import { ApiError, errorBody, MESSAGES } from "./http";

export type ApiRequest = {
  method: string;
  /** The path without its query, e.g. /resourceful/session/user. */
  path: string;
  params: Record<string, string>;
  query: Record<string, string>;
  body: unknown;
  /** The XPLANID cookie, when sent. */
  token: string | null;
  /** X-Xplan-Auth-Failure-Action: error asks for a 401 instead of a redirect. */
  authFailureAsError: boolean;
  /** The person's address and browser, read once from the request (server/lib/request-origin.ts); unknown when not said. */
  client?: RequestClient;
  /** The pattern of the route that took it, set by the dispatcher (the metrics' label, decision 126). */
  route?: string;
  /**
   * The caller a batch already found for its items (its session already refreshed by the batch):
   * set, the session is neither read nor touched again (decision 130).
   */
  batchCaller?: Caller | null;
};

export type ApiResponse = {
  status: number;
  body?: unknown;
  /** A body sent as it is (HTML, file bytes) instead of JSON; its Content-Type is in headers. */
  raw?: string | Buffer;
  headers?: Record<string, string>;
  cookies?: string[];
};

export type Services = { db: Db; clock: Clock; env: PlatformEnv };

export type HandlerContext = Services & {
  /** The signed-in user (always set on routes with session "required"). */
  caller: Caller | null;
  /**
   * The address and browser the call came from: the owner's notices name it (docs/decisions/164), a
   * new session records what the portal told of it (docs/decisions/170).
   */
  client: RequestClient;
  /** Runs another call in-process with the same session (the batch endpoint). */
  dispatch: (request: ApiRequest) => Promise<ApiResponse>;
  /** Where the platform logs (the dispatcher's log), for a handler with something to say. */
  log?: PlatformLogger;
  /** On an authentication route, what its handler says of the decision for its `auth` line (server/lib/auth-log.ts). */
  auth?: AuthNote;
};

export type SignedInContext = HandlerContext & { caller: Caller };

type SessionRule = "required" | "optional";

export type Route = {
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  pattern: string;
  session: SessionRule;
  /** The 401 message when the session is missing, if not the usual one (heartbeat). */
  noSessionMessage?: string;
  /** Whether a valid session's idle clock is refreshed (every /resourceful/ call). */
  refreshes: boolean;
  handler: (request: ApiRequest, context: HandlerContext) => ApiResponse | Promise<ApiResponse>;
};

type Handler<C> = (request: ApiRequest, context: C) => ApiResponse | Promise<ApiResponse>;

/** Route builders: a signed-in route's handler gets a context whose caller is set. */
export function signedIn(
  method: Route["method"],
  pattern: string,
  handler: Handler<SignedInContext>,
  options: { noSessionMessage?: string } = {},
): Route {
  return {
    method,
    pattern,
    session: "required",
    refreshes: true,
    noSessionMessage: options.noSessionMessage,
    handler: (request, context) => handler(request, context as SignedInContext),
  };
}

export function open(method: Route["method"], pattern: string, handler: Handler<HandlerContext>): Route {
  return { method, pattern, session: "optional", refreshes: pattern.startsWith("/resourceful"), handler };
}

/** The query of a URL as single values; a repeated key's values are joined with commas. */
export function queryOf(url: URL): Record<string, string> {
  const query: Record<string, string> = {};
  for (const [key, value] of url.searchParams) query[key] = key in query ? `${query[key]},${value}` : value;
  return query;
}

export const json = (body: unknown, status = 200): ApiResponse => ({ status, body });
export const noContent = (): ApiResponse => ({ status: 204 });

/** A route's pattern split once: literal segments, and `:name` ones that take a path segment. */
type CompiledRoute = { route: Route; segments: Array<{ literal: string } | { param: string }> };

function compile(route: Route): CompiledRoute {
  return {
    route,
    segments: route.pattern
      .split("/")
      .filter(Boolean)
      .map((w) => (w.startsWith(":") ? { param: w.slice(1) } : { literal: w })),
  };
}

function matchPattern(compiled: CompiledRoute, got: readonly string[]): Record<string, string> | null {
  const want = compiled.segments;
  if (want.length !== got.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    const w = want[i] as { literal: string } | { param: string };
    const g = got[i] as string;
    if ("param" in w) {
      try {
        params[w.param] = decodeURIComponent(g);
      } catch {
        return null;
      }
    } else if (w.literal !== g) return null;
  }
  return params;
}

/** `log`: where the authentication decisions are written (ASVS V7.2.1, server/lib/auth-log.ts). */
export function createDispatcher(routes: Route[], services: Services, log?: PlatformLogger) {
  // the routes by number of segments, in their order: a path is tried only against its length's
  const bySegments = new Map<number, CompiledRoute[]>();
  for (const route of routes) {
    const compiled = compile(route);
    const list = bySegments.get(compiled.segments.length) ?? [];
    list.push(compiled);
    bySegments.set(compiled.segments.length, list);
  }
  async function dispatch(request: ApiRequest): Promise<ApiResponse> {
    const path = request.path.length > 1 ? request.path.replace(/\/+$/, "") : request.path;
    const got = path.split("/").filter(Boolean);
    let found: { route: Route; params: Record<string, string> } | null = null;
    let pathKnown = false;
    for (const compiled of bySegments.get(got.length) ?? []) {
      const params = matchPattern(compiled, got);
      if (!params) continue;
      pathKnown = true;
      if (compiled.route.method === request.method) {
        found = { route: compiled.route, params };
        break;
      }
    }
    if (!found) {
      const status = pathKnown ? 405 : 404;
      const message = pathKnown ? `Method ${request.method} not allowed on ${path}` : `No such resource: ${path}`;
      return { status, body: errorBody(new ApiError(status, message)) };
    }
    const { route, params } = found;
    request.route = route.pattern;
    const step = log ? AUTH_STEPS[`${request.method} ${route.pattern}`] : undefined;
    if (!step || !log) return answerWith(route, request, path, params);
    const auth: AuthNote = {};
    const answer = await answerWith(route, request, path, params, auth);
    logAuthDecision(log, step, answer, auth);
    return answer;
  }
  async function answerWith(
    route: Route,
    request: ApiRequest,
    path: string,
    params: Record<string, string>,
    auth?: AuthNote,
  ): Promise<ApiResponse> {
    let caller: Caller | null = null;
    try {
      if (request.batchCaller !== undefined) caller = request.batchCaller;
      else {
        caller = request.token ? findCaller(services.db, services.clock, request.token) : null;
        if (caller && route.refreshes)
          touchSession(services.db, services.clock, caller.session, toldClient(request.client));
      }
      if (route.session === "required" && !caller) {
        if (!request.authFailureAsError && !route.noSessionMessage) {
          return { status: 302, headers: { Location: "/auth/login" } };
        }
        throw new ApiError(401, route.noSessionMessage ?? MESSAGES.noSession);
      }
      if (auth && caller) auth.userId = caller.user.id;
      return await route.handler(
        { ...request, path, params },
        {
          ...services,
          ...(log ? { log } : {}),
          caller,
          client: request.client ?? UNKNOWN_CLIENT,
          dispatch,
          auth,
        },
      );
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      // an authentication route's refusals are its `auth` line's
      if (!auth) logAccessRefused(log, caller, { method: request.method, route: route.pattern, params, error });
      return { status: error.status, body: errorBody(error) };
    }
  }
  return dispatch;
}

/** A refusal's reason as logged: the platform's api_message (ids and fixed words), never longer than this. */
const REASON_MAX = 200;

/**
 * The `access refused` line (ASVS 4.0.3 V7.2.2, docs/decisions/185): who asked (the user's id), for
 * what (the route's pattern and the ids in its path), the status and the platform's reason; the
 * request's id comes from the logger. A path's other values (a file's name) are left out: they can
 * be personal. A 404 is logged too: another user's item is answered as a missing one on purpose,
 * so the line says "refused or missing" by its status, as the answer does.
 */
function logAccessRefused(
  log: PlatformLogger | undefined,
  caller: Caller | null,
  refusal: { method: string; route: string; params: Record<string, string>; error: ApiError },
): void {
  // ASVS V7.2.2: a refused access decision of a signed-in caller
  if (!log || !caller || (refusal.error.status !== 403 && refusal.error.status !== 404)) return;
  const ids = Object.fromEntries(Object.entries(refusal.params).filter(([, value]) => /^\d{1,18}$/.test(value)));
  log.warn(
    {
      userId: caller.user.id,
      route: `${refusal.method} ${refusal.route}`,
      ...(Object.keys(ids).length ? { ids } : {}),
      status: refusal.error.status,
      reason: refusal.error.apiMessage.slice(0, REASON_MAX),
    },
    "access refused",
  );
}
