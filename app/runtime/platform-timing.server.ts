import { AsyncLocalStorage } from "node:async_hooks";

// How long a request waited for the platform (issue 16): the time during which at least one
// planning call was in flight, so calls made in parallel count once — the platform's critical
// path on the page. The portal's server runs each request inside `runWithPlatformTiming`
// (scripts/portal-server.mjs, through the server build's entry); the entry adds the figure to the
// answer as `Server-Timing: platform;dur=…`, and `npm run bench` takes it from the page's time to
// find the portal's own. Outside a request (tests calling a loader) nothing is recorded.

type Timing = { inFlight: number; since: number; waited: number; calls: number };

const storage = new AsyncLocalStorage<Timing>();

export function runWithPlatformTiming<T>(work: () => T): T {
  return storage.run({ inFlight: 0, since: 0, waited: 0, calls: 0 }, work);
}

/** Marks a planning call as started; the answer ends it (once). */
export function platformCallStarted(): () => void {
  const timing = storage.getStore();
  if (!timing) return () => undefined;
  if (timing.inFlight === 0) timing.since = performance.now();
  timing.inFlight += 1;
  timing.calls += 1;
  let ended = false;
  return () => {
    if (ended) return;
    ended = true;
    timing.inFlight -= 1;
    if (timing.inFlight === 0) timing.waited += performance.now() - timing.since;
  };
}

/** The Server-Timing entry of the request so far, or null outside one. */
export function platformServerTiming(): string | null {
  const timing = storage.getStore();
  if (!timing) return null;
  const open = timing.inFlight > 0 ? performance.now() - timing.since : 0;
  return `platform;dur=${(timing.waited + open).toFixed(1)};desc="${timing.calls} platform calls"`;
}
