import { eq, lt, sql } from "drizzle-orm";
import type { Clock } from "./clock";
import type { Db } from "./db/connection";
import { prepared } from "./db/prepared";
import {
  loginProfiles,
  loginTickets,
  passkeyChallenges,
  passwordResets,
  pendingMfaDevices,
  sessions,
  users,
} from "./db/schema";
import { accountDisabled } from "./domain/accounts";
import { newToken, tokenDigest } from "./lib/tokens";

export type SessionRow = typeof sessions.$inferSelect;
export type UserRow = typeof users.$inferSelect;
export type Caller = { session: SessionRow; user: UserRow };

const DEFAULT_IDLE_MINUTES = 30;

/** Starts a session for a user; answers the token for the XPLANID cookie (only its digest is kept). */
export function createSession(db: Db, clock: Clock, userId: number): string {
  const token = newToken();
  const now = clock.now().toISOString();
  db.insert(sessions)
    .values({ tokenHash: tokenDigest(token), userId, createdAt: now, lastSeenAt: now })
    .run();
  return token;
}

/**
 * The session of a token, or null when unknown or idle longer than the user's session-timeout
 * profile (spec 000 §4); an expired session is deleted so the token stays dead.
 */
export function findCaller(db: Db, clock: Clock, token: string): Caller | null {
  const row = prepared(db, callerOfToken).get({ tokenHash: tokenDigest(token) });
  if (!row) return null;
  const idleMs = clock.now().getTime() - new Date(row.session.lastSeenAt).getTime();
  const timeoutMs = (row.timeout ?? DEFAULT_IDLE_MINUTES) * 60_000;
  if (idleMs > timeoutMs || accountDisabled(row.user, clock)) {
    deleteSession(db, row.session.id);
    return null;
  }
  return { session: row.session, user: row.user };
}

// every request's statements, prepared once per database
const callerOfToken = (db: Db) =>
  db
    .select({ session: sessions, user: users, timeout: loginProfiles.sessionTimeout })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .leftJoin(loginProfiles, eq(loginProfiles.id, users.loginProfileId))
    .where(eq(sessions.tokenHash, sql.placeholder("tokenHash")))
    .prepare();
const touch = (db: Db) =>
  db
    .update(sessions)
    .set({ lastSeenAt: sql`${sql.placeholder("lastSeenAt")}` })
    .where(eq(sessions.id, sql.placeholder("id")))
    .prepare();
const forget = (db: Db) =>
  db
    .delete(sessions)
    .where(eq(sessions.id, sql.placeholder("id")))
    .prepare();

/**
 * How stale a session's idle clock may be before a call writes it again: the calls of one page
 * arrive within a few milliseconds of each other, and each write is a commit (decision 130).
 */
export const TOUCH_PRECISION_MS = 1000;

/** Refreshes the session's idle clock, unless it was refreshed less than TOUCH_PRECISION_MS ago. */
export function touchSession(db: Db, clock: Clock, session: Pick<SessionRow, "id" | "lastSeenAt">): void {
  const now = clock.now();
  if (Math.abs(now.getTime() - new Date(session.lastSeenAt).getTime()) < TOUCH_PRECISION_MS) return;
  prepared(db, touch).run({ lastSeenAt: now.toISOString(), id: session.id });
}

export function deleteSession(db: Db, sessionId: number): void {
  prepared(db, forget).run({ id: sessionId });
}

/**
 * Housekeeping: forgets sessions idle for longer than a day (far past any profile's timeout), and
 * expired login tickets, password resets, passkey challenges and devices never validated.
 */
export function purgeStaleSessions(db: Db, clock: Clock): void {
  const now = clock.now();
  const cutoff = new Date(now.getTime() - 24 * 60 * 60_000).toISOString();
  db.delete(sessions).where(lt(sessions.lastSeenAt, cutoff)).run();
  db.delete(loginTickets).where(lt(loginTickets.expiresAt, now.toISOString())).run();
  db.delete(passwordResets).where(lt(passwordResets.expiresAt, now.toISOString())).run();
  db.delete(pendingMfaDevices).where(lt(pendingMfaDevices.expiresAt, now.toISOString())).run();
  db.delete(passkeyChallenges).where(lt(passkeyChallenges.expiresAt, now.toISOString())).run();
}
