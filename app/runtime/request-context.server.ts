import { AsyncLocalStorage } from "node:async_hooks";

// What the portal keeps about the request being served, in one AsyncLocalStorage
// (docs/decisions/132): its id (request-id.server.ts), its wait for the platform
// (platform-timing.server.ts), and whether it asks for a whole page, with the charts' markup its
// page shows (chart-markup.server.ts, docs/decisions/156). Node propagates every storage to every
// promise and callback a request makes, so one storage for all costs half what one each did. The
// portal's server enters it once per request (`runWithRequestId`, scripts/portal-app.mjs).

/**
 * Who is asking, as the platform is told with each call (docs/decisions/170): the person's address
 * (behind the trusted proxies) and their browser's User-Agent; null when unknown.
 */
export type RequestClient = { readonly address: string | null; readonly userAgent: string | null };

const UNKNOWN_CLIENT: RequestClient = { address: null, userAgent: null };

/** A request's wait for the platform so far (platform-timing.server.ts). */
export type PlatformTiming = { inFlight: number; since: number; waited: number; calls: number };

export type RequestContext = {
  /** The request's id; none when only the timing is wanted (tests). */
  readonly requestId: string | undefined;
  readonly timing: PlatformTiming;
  /**
   * Whether the request asks for a whole page (a document request), not for a loader's data
   * (`?_data=`, a client-side navigation); false when nobody said (tests calling a loader).
   */
  readonly documentRequest: boolean;
  /** A document request's charts' SVG markup, by the key its loader data gives instead (chart-markup.server.ts). */
  readonly chartMarkup: Map<string, string>;
  /** Who is asking: the platform keeps it with the session (where the user is signed in). */
  readonly client: RequestClient;
};

const storage = new AsyncLocalStorage<RequestContext>();

/**
 * Whether a request for `url` (its path and query, as the server received it) asks for a whole
 * page. Remix answers a request with a `_data` parameter with one route's loader data, and takes
 * the parameter away before a loader sees the request: only the server's own URL still says so.
 */
export function asksForDocument(url: string): boolean {
  const query = url.indexOf("?");
  return query < 0 || !new URLSearchParams(url.slice(query + 1)).has("_data");
}

/**
 * Runs `work` as a request's: its id, a wait for the platform that starts at nothing, whether it is
 * a document request, and no charts' markup yet.
 */
export function runInRequestContext<T>(
  requestId: string | undefined,
  work: () => T,
  documentRequest = false,
  client: RequestClient = UNKNOWN_CLIENT,
): T {
  return storage.run(
    {
      requestId,
      timing: { inFlight: 0, since: 0, waited: 0, calls: 0 },
      documentRequest,
      chartMarkup: new Map(),
      client,
    },
    work,
  );
}

/** The request being served, or undefined outside one (start-up, tests calling a loader). */
export function currentRequestContext(): RequestContext | undefined {
  return storage.getStore();
}
