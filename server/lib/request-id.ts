import { AsyncLocalStorage } from "node:async_hooks";
import { randomUUID } from "node:crypto";

// The request id (docs/platform-api.md "Request ids", docs/decisions/125): the caller's
// X-Request-Id when sane (the portal sends its request's), else made here; the answer carries it,
// and so does every log line written while the request is served (server/lib/logger.ts).

export const REQUEST_ID_HEADER = "X-Request-Id";

/** What an incoming id may be: 1 to 128 letters, digits, dots, underscores, colons and hyphens. */
const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The id of a request: the incoming header's when sane (a log line must not be forged), else a new one. */
export function requestIdOf(incoming: string | string[] | undefined): string {
  const value = Array.isArray(incoming) ? incoming[0] : incoming;
  return value && SANE_REQUEST_ID.test(value) ? value : randomUUID();
}

const storage = new AsyncLocalStorage<string>();

export function runWithRequestId<T>(requestId: string, work: () => T): T {
  return storage.run(requestId, work);
}

/** The id of the request being served, or undefined outside one. */
export function currentRequestId(): string | undefined {
  return storage.getStore();
}
