import { randomUUID } from "node:crypto";
import { addressBehindProxies } from "./client-address.server";
import {
  asksForDocument,
  currentRequestContext,
  type RequestClient,
  runInRequestContext,
} from "./request-context.server";

// The request id (issue 26, docs/decisions/125): taken from the load balancer's X-Request-Id when
// it is sane, else made here; the portal's server (scripts/portal-server.mjs, through the server
// build's entry) answers with it and runs the request inside `runWithRequestId`, so that every log
// line of the request carries it (app/runtime/logger.server.ts) and every platform call sends it
// (app/planning/client.server.ts). The platform keeps the same rule (server/lib/request-id.ts).

export const REQUEST_ID_HEADER = "X-Request-Id";

/** What an incoming id may be: 1 to 128 letters, digits, dots, underscores, colons and hyphens. */
const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The id of a request: the incoming header's when sane (a log line must not be forged), else a new one. */
export function requestIdOf(incoming: string | null | undefined): string {
  return incoming && SANE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
}

/**
 * Runs `work` as the request of this id. It is the request's one context (request-context.server.ts):
 * its wait for the platform is timed in it too (platform-timing.server.ts), and `url` (the path and
 * query the server received) says whether it asks for a whole page (docs/decisions/156); without
 * it, the request is taken for a data request.
 */
export function runWithRequestId<T>(requestId: string, work: () => T, url?: string, from?: RequestOrigin): T {
  return runInRequestContext(requestId, work, url !== undefined && asksForDocument(url), from && clientOf(from));
}

/** What the server knows of where a request came from: its headers and the connection's address. */
export type RequestOrigin = {
  forwardedFor?: string | null;
  socketAddress?: string | null;
  userAgent?: string | null;
};

/** The person asking: the address by clientAddress's rule (TRUST_PROXY_HOPS), and the browser. */
export function clientOf(from: RequestOrigin): RequestClient {
  return {
    address: addressBehindProxies(from.forwardedFor, from.socketAddress),
    userAgent: from.userAgent?.trim() || null,
  };
}

/** The client of the request being served: the platform is told it with each call (client.server.ts). */
export function currentRequestClient(): RequestClient | undefined {
  return currentRequestContext()?.client;
}

/** The id of the request being served, or undefined outside one (start-up, tests calling a loader). */
export function currentRequestId(): string | undefined {
  return currentRequestContext()?.requestId;
}

/** The header that passes the request's id on to the platform, or none outside a request. */
export function requestIdHeader(): Record<string, string> {
  const requestId = currentRequestId();
  return requestId === undefined ? {} : { [REQUEST_ID_HEADER]: requestId };
}
