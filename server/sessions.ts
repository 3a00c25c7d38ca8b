import { and, desc, eq, getTableColumns, gte, lt, ne, sql } from "drizzle-orm";
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
import { type RequestOrigin, UNKNOWN_ORIGIN } from "./lib/request-origin";
import { newToken, tokenDigest } from "./lib/tokens";

export type SessionRow = typeof sessions.$inferSelect;
export type UserRow = typeof users.$inferSelect;
/** The secrets a call never needs to know who is asking: read on their own by what checks them. */
type Secret = "passwordHash" | "mfaTotpSecret" | "memorableWord";
/** A caller's user: the row without its secrets (each call reads it; the sealed ones would be opened each time). */
export type CallerUser = Omit<UserRow, Secret>;
export type Caller = { session: SessionRow; user: CallerUser };

const {
  passwordHash: _hash,
  mfaTotpSecret: _totp,
  memorableWord: _word,
  ...callerUserColumns
} = getTableColumns(users);

const DEFAULT_IDLE_MINUTES = 30;

/**
 * Starts a session for a user, with the browser and address it was started from; answers the
 * token for the XPLANID cookie (only its digest is kept).
 */
export function createSession(db: Db, clock: Clock, userId: number, client: RequestOrigin = UNKNOWN_ORIGIN): string {
  const token = newToken();
  const now = clock.now().toISOString();
  db.insert(sessions)
    .values({
      tokenHash: tokenDigest(token),
      userId,
      createdAt: now,
      lastSeenAt: now,
      userAgent: client.userAgent,
      clientAddress: client.address,
    })
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
    .select({ session: sessions, user: callerUserColumns, timeout: loginProfiles.sessionTimeout })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .leftJoin(loginProfiles, eq(loginProfiles.id, users.loginProfileId))
    .where(eq(sessions.tokenHash, sql.placeholder("tokenHash")))
    .prepare();
const passwordHashOfUser = (db: Db) =>
  db
    .select({ passwordHash: users.passwordHash })
    .from(users)
    .where(eq(users.id, sql.placeholder("id")))
    .prepare();

/** The user's password hash, read when a password is checked (the caller's row leaves it out). */
export function passwordHashOf(db: Db, userId: number): string {
  const row = prepared(db, passwordHashOfUser).get({ id: userId });
  if (!row) throw new Error(`no user ${userId}`);
  return row.passwordHash;
}

// the address and browser move on with the idle clock, so that 'last active' says from where
const touch = (db: Db) =>
  db
    .update(sessions)
    .set({
      lastSeenAt: sql`${sql.placeholder("lastSeenAt")}`,
      clientAddress: sql`coalesce(${sql.placeholder("address")}, ${sessions.clientAddress})`,
      userAgent: sql`coalesce(${sql.placeholder("userAgent")}, ${sessions.userAgent})`,
    })
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

/**
 * Refreshes the session's idle clock, with the address and browser of the call when sent, unless
 * it was refreshed less than TOUCH_PRECISION_MS ago and they are unchanged.
 */
export function touchSession(
  db: Db,
  clock: Clock,
  session: Pick<SessionRow, "id" | "lastSeenAt"> & Partial<Pick<SessionRow, "clientAddress" | "userAgent">>,
  client: RequestOrigin = UNKNOWN_ORIGIN,
): void {
  const now = clock.now();
  const moved =
    (client.address !== null && client.address !== session.clientAddress) ||
    (client.userAgent !== null && client.userAgent !== session.userAgent);
  if (!moved && Math.abs(now.getTime() - new Date(session.lastSeenAt).getTime()) < TOUCH_PRECISION_MS) return;
  prepared(db, touch).run({
    lastSeenAt: now.toISOString(),
    address: client.address,
    userAgent: client.userAgent,
    id: session.id,
  });
}

export function deleteSession(db: Db, sessionId: number): void {
  prepared(db, forget).run({ id: sessionId });
}

/**
 * Housekeeping: forgets sessions idle for longer than a day (far past any profile's timeout), and
 * expired login tickets, password resets, passkey challenges and devices never validated; answers
 * how many of each (the retention job's line, docs/decisions/184).
 */
export function purgeStaleSessions(db: Db, clock: Clock) {
  const now = clock.now();
  const cutoff = new Date(now.getTime() - 24 * 60 * 60_000).toISOString();
  return {
    sessions: db.delete(sessions).where(lt(sessions.lastSeenAt, cutoff)).run().changes,
    loginTickets: db.delete(loginTickets).where(lt(loginTickets.expiresAt, now.toISOString())).run().changes,
    passwordResets: db.delete(passwordResets).where(lt(passwordResets.expiresAt, now.toISOString())).run().changes,
    pendingDevices: db.delete(pendingMfaDevices).where(lt(pendingMfaDevices.expiresAt, now.toISOString())).run()
      .changes,
    passkeyChallenges: db.delete(passkeyChallenges).where(lt(passkeyChallenges.expiresAt, now.toISOString())).run()
      .changes,
  };
}

/** The idle minutes of a user's session-timeout profile (spec 000 §4), or the default. */
function idleMinutesOf(db: Db, user: Pick<UserRow, "loginProfileId">): number {
  if (user.loginProfileId === null) return DEFAULT_IDLE_MINUTES;
  const profile = db
    .select({ timeout: loginProfiles.sessionTimeout })
    .from(loginProfiles)
    .where(eq(loginProfiles.id, user.loginProfileId))
    .get();
  return profile?.timeout ?? DEFAULT_IDLE_MINUTES;
}

/**
 * A user's live sessions (ASVS V3.3.4, docs/decisions/170), the most recently active first: those
 * idle past the profile's timeout are dead even while their row waits to be purged, so they are
 * not listed.
 */
export function liveSessionsOf(db: Db, clock: Clock, user: Pick<UserRow, "id" | "loginProfileId">): SessionRow[] {
  const since = new Date(clock.now().getTime() - idleMinutesOf(db, user) * 60_000).toISOString();
  return db
    .select()
    .from(sessions)
    .where(and(eq(sessions.userId, user.id), gte(sessions.lastSeenAt, since)))
    .orderBy(desc(sessions.lastSeenAt), desc(sessions.id))
    .all();
}

/** Ends one of a user's sessions; false when the user has no session of that id (another's, or gone). */
export function endSessionOf(db: Db, userId: number, sessionId: number): boolean {
  return (
    db
      .delete(sessions)
      .where(and(eq(sessions.id, sessionId), eq(sessions.userId, userId)))
      .run().changes > 0
  );
}

/** Ends every session of a user but the one kept; answers how many ended. */
export function endOtherSessionsOf(db: Db, userId: number, keepSessionId: number): number {
  return db
    .delete(sessions)
    .where(and(eq(sessions.userId, userId), ne(sessions.id, keepSessionId)))
    .run().changes;
}
