// spec 000 §4 "Session timeout" and §9 "Session": the timing rules of the browser's warning, pure
// so that they are tested without a browser or a clock (docs/decisions/060).

/** spec 000 §9: mouse presses reset the timers (and send a heartbeat) at most once a second. */
export const ACTIVITY_THROTTLE_MS = 1_000;

/**
 * Minutes of inactivity after which the warning shows: 5 minutes before the timeout when the
 * timeout is over 10 minutes, else 1 minute before (25 of 30, 9 of 10).
 */
export function warningAfterMinutes(timeoutMinutes: number): number {
  return timeoutMinutes > 10 ? timeoutMinutes - 5 : Math.max(timeoutMinutes - 1, 0);
}

/** How long the warning shows before the end. */
export function warningLeadMs(timeoutMinutes: number): number {
  return (timeoutMinutes - warningAfterMinutes(timeoutMinutes)) * 60_000;
}

/** Browser clock times (ms) at which the warning shows and the session ends. */
export type TimeoutSchedule = { warnAt: number; endAt: number; timeoutMinutes: number };

/**
 * The schedule from the moment of the last activity. `remainingMs` is what the server still allows
 * (less than the whole timeout when it has not refreshed its activity time to the second).
 */
export function scheduleFrom(activityAt: number, timeoutMinutes: number, remainingMs?: number): TimeoutSchedule {
  const timeoutMs = timeoutMinutes * 60_000;
  const endAt = activityAt + Math.min(remainingMs ?? timeoutMs, timeoutMs);
  return { warnAt: Math.max(endAt - warningLeadMs(timeoutMinutes), activityAt), endAt, timeoutMinutes };
}

export type TimeoutPhase = "active" | "warning" | "ended";

export function phaseAt(schedule: TimeoutSchedule, now: number): TimeoutPhase {
  if (now >= schedule.endAt) return "ended";
  if (now >= schedule.warnAt) return "warning";
  return "active";
}

/** What is left until the end, in whole minutes and seconds (rounded up: 4:59.2 shows 5:00). */
export function timeLeft(schedule: TimeoutSchedule, now: number): { minutes: number; seconds: number } {
  const total = Math.max(Math.ceil((schedule.endAt - now) / 1_000), 0);
  return { minutes: Math.floor(total / 60), seconds: total % 60 };
}

/** The delay until the next moment the view may change: the warning, then every second to the end. */
export function nextTickIn(schedule: TimeoutSchedule, now: number): number | null {
  switch (phaseAt(schedule, now)) {
    case "active":
      return schedule.warnAt - now;
    case "warning":
      return Math.min(1_000, schedule.endAt - now);
    default:
      return null;
  }
}

/** A once-per-interval gate: answers true for the first call and then once `intervalMs` has passed. */
export function createThrottle(intervalMs: number = ACTIVITY_THROTTLE_MS) {
  let last = Number.NEGATIVE_INFINITY;
  return (now: number): boolean => {
    if (now - last < intervalMs) return false;
    last = now;
    return true;
  };
}

type MaybeElement = { closest?: (selector: string) => unknown } | null;

/** spec 000 §4: presses on elements marked no-heartbeat (`data-no-heartbeat`) are not activity. */
export function countsAsActivity(target: MaybeElement): boolean {
  if (!target || typeof target.closest !== "function") return true;
  return !target.closest("[data-no-heartbeat]");
}
