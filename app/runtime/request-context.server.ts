import { AsyncLocalStorage } from "node:async_hooks";

// What the portal keeps about the request being served, in one AsyncLocalStorage
// (docs/decisions/132): its id (request-id.server.ts) and its wait for the platform
// (platform-timing.server.ts). Node propagates every storage to every promise and callback a
// request makes, so one storage for both costs half what one each did. The portal's server enters
// it once per request (`runWithRequestId`, scripts/portal-server.mjs).

/** A request's wait for the platform so far (platform-timing.server.ts). */
export type PlatformTiming = { inFlight: number; since: number; waited: number; calls: number };

export type RequestContext = {
  /** The request's id; none when only the timing is wanted (tests). */
  readonly requestId: string | undefined;
  readonly timing: PlatformTiming;
};

const storage = new AsyncLocalStorage<RequestContext>();

/** Runs `work` as a request's: its id, and a wait for the platform that starts at nothing. */
export function runInRequestContext<T>(requestId: string | undefined, work: () => T): T {
  return storage.run({ requestId, timing: { inFlight: 0, since: 0, waited: 0, calls: 0 } }, work);
}

/** The request being served, or undefined outside one (start-up, tests calling a loader). */
export function currentRequestContext(): RequestContext | undefined {
  return storage.getStore();
}
