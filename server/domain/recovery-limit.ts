import { and, eq, isNull, lt, or, sql } from "drizzle-orm";
import type { Clock } from "../clock";
import type { Db } from "../db/connection";
import { recoveryAttempts } from "../db/schema";

// Wrong reset codes and security answers are counted per username asked for, known or not, apart
// from sign-in failures (docs/decisions/163): a stranger's guesses pause that username's password
// reset for a while, never its sign-in, and every username is paused alike.

/** Wrong codes or answers for one username, within the window, that pause its password reset. */
export const MAX_RECOVERY_FAILURES = 5;
/** The failures counted are those since the window's first, for this long. */
export const RECOVERY_WINDOW_MINUTES = 30;
/** How long a username's password reset is paused once the limit is reached. */
export const RECOVERY_PAUSE_MINUTES = 30;

type Services = { db: Db; clock: Clock };

/** How a username is counted: trimmed and in lower case, as accounts are found. */
export function usernameKeyOf(username: string): string {
  return username.trim().toLowerCase();
}

const minutesAfter = (start: Date, minutes: number) => new Date(start.getTime() + minutes * 60_000);

/** When the username's paused password reset may start again, or null when it is not paused. */
export function recoveryPausedUntil({ db, clock }: Services, usernameKey: string): Date | null {
  const row = db.select().from(recoveryAttempts).where(eq(recoveryAttempts.usernameKey, usernameKey)).get();
  if (!row?.pausedUntil) return null;
  const until = new Date(row.pausedUntil);
  return clock.now().getTime() < until.getTime() ? until : null;
}

/**
 * One more wrong code or answer for the username. Answers when the reset is paused until if this
 * failure reached the limit, else null. A count whose window is over, or whose pause is over,
 * starts again from this failure.
 */
export function recordRecoveryFailure({ db, clock }: Services, usernameKey: string): Date | null {
  const now = clock.now();
  const row = db.select().from(recoveryAttempts).where(eq(recoveryAttempts.usernameKey, usernameKey)).get();
  const stale =
    !row ||
    (row.pausedUntil !== null && now.getTime() >= Date.parse(row.pausedUntil)) ||
    now.getTime() >= minutesAfter(new Date(row.windowStartedAt), RECOVERY_WINDOW_MINUTES).getTime();
  const failures = stale ? 1 : row.failures + 1;
  const pausedUntil = failures >= MAX_RECOVERY_FAILURES ? minutesAfter(now, RECOVERY_PAUSE_MINUTES) : null;
  const values = {
    failures,
    windowStartedAt: stale ? now.toISOString() : row.windowStartedAt,
    pausedUntil: pausedUntil?.toISOString() ?? null,
  };
  db.insert(recoveryAttempts)
    .values({ usernameKey, ...values })
    .onConflictDoUpdate({ target: recoveryAttempts.usernameKey, set: values })
    .run();
  return pausedUntil;
}

/** The owner proved who they are (a completed reset): the username's count starts again. */
export function clearRecoveryFailures(db: Db, usernameKey: string): void {
  db.delete(recoveryAttempts).where(eq(recoveryAttempts.usernameKey, usernameKey)).run();
}

/** Forgets the counts whose window and pause are both over (the table holds unknown usernames too). */
export function pruneRecoveryAttempts({ db, clock }: Services): number {
  const now = clock.now();
  const windowStart = minutesAfter(now, -RECOVERY_WINDOW_MINUTES).toISOString();
  return db
    .delete(recoveryAttempts)
    .where(
      and(
        lt(recoveryAttempts.windowStartedAt, windowStart),
        or(isNull(recoveryAttempts.pausedUntil), sql`${recoveryAttempts.pausedUntil} <= ${now.toISOString()}`),
      ),
    )
    .run().changes;
}
