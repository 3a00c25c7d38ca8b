import { currentRequestContext, runInRequestContext } from "./request-context.server";

// How long a request waited for the platform (issue 16): the time during which at least one
// planning call was in flight, so calls made in parallel count once — the platform's critical
// path on the page. The wait is kept in the request's context (request-context.server.ts), which
// the portal's server enters for each request with its id (`runWithRequestId`,
// scripts/portal-server.mjs); the entry adds the figure to the answer as
// `Server-Timing: platform;dur=…`, and `npm run bench` takes it from the page's time to find the
// portal's own. Outside a request (tests calling a loader) nothing is recorded.

/** Runs `work` with a wait of its own for the platform, in the same request if any: tests time calls with it. */
export function runWithPlatformTiming<T>(work: () => T): T {
  return runInRequestContext(currentRequestContext()?.requestId, work);
}

/** Marks a planning call as started; the answer ends it (once). */
export function platformCallStarted(): () => void {
  const timing = currentRequestContext()?.timing;
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
  const timing = currentRequestContext()?.timing;
  if (!timing) return null;
  const open = timing.inFlight > 0 ? performance.now() - timing.since : 0;
  return `platform;dur=${(timing.waited + open).toFixed(1)};desc="${timing.calls} platform calls"`;
}
