import { and, asc, eq, isNotNull, lte, ne, sql } from "drizzle-orm";
import type { Clock } from "../clock";
import type { Db } from "../db/connection";
import { lockoutMinutes, type PlatformEnv } from "../env";
import {
  loginTickets,
  outbox,
  passwordResets,
  pendingMfaDevices,
  securityQuestions,
  sessions,
  users,
} from "../db/schema";
import { currentPepperId, hashSecret, isKnownPepper, needsRehash, pepperIdOf, verifySecret } from "../lib/password";
import { type RequestOrigin, UNKNOWN_ORIGIN } from "../lib/request-origin";
import { tellOwner } from "./notices";
import { normaliseAnswer } from "./security-questions";

type Services = { db: Db; clock: Clock; env: PlatformEnv };

/** Consecutive wrong secrets after which the account is locked (docs/decisions/041, 114). */
export const MAX_FAILED_ATTEMPTS = 5;

/** Ends every way in for a user: sessions (but the one kept), sign-ins part-way, resets, pending devices. */
export function endUserAccess(db: Db, userId: number, keepSessionId?: number): void {
  db.delete(sessions)
    .where(
      keepSessionId === undefined
        ? eq(sessions.userId, userId)
        : and(eq(sessions.userId, userId), ne(sessions.id, keepSessionId)),
    )
    .run();
  db.delete(loginTickets).where(eq(loginTickets.userId, userId)).run();
  if (keepSessionId === undefined) {
    db.delete(passwordResets).where(eq(passwordResets.userId, userId)).run();
    db.delete(pendingMfaDevices).where(eq(pendingMfaDevices.userId, userId)).run();
  }
}

/**
 * Whether the account is refused: locked by wrong secrets until its `locked_until` (docs/decisions/114),
 * or disabled by an operator (no `locked_until`) until they re-enable it.
 */
export function accountDisabled(user: { disabled: boolean; lockedUntil: string | null }, clock: Clock): boolean {
  if (!user.disabled) return false;
  return user.lockedUntil === null || clock.now().getTime() < Date.parse(user.lockedUntil);
}

/**
 * One more wrong secret at sign-in or while signed in (password, code, memorable characters; never
 * a reset code or answer, which count apart: docs/decisions/163). Answers true when this failure
 * locked the account: it is then locked for the configured minutes (PLATFORM_LOCKOUT_MINUTES),
 * every way in is closed and the owner is told (docs/decisions/164). While locked nothing more is
 * counted, so wrong guesses never lengthen the lock; once it is over the count starts again from
 * this failure.
 */
export function recordFailure(
  { db, clock, env, client = UNKNOWN_ORIGIN }: Services & { client?: RequestOrigin },
  userId: number,
): boolean {
  const user = db
    .select({ disabled: users.disabled, lockedUntil: users.lockedUntil })
    .from(users)
    .where(eq(users.id, userId))
    .get();
  if (!user) return false;
  if (user.disabled) {
    if (accountDisabled(user, clock)) return false;
    db.update(users).set({ disabled: false, lockedUntil: null, failedAttempts: 1 }).where(eq(users.id, userId)).run();
    return false;
  }
  const row = db
    .update(users)
    .set({ failedAttempts: sql`${users.failedAttempts} + 1` })
    .where(eq(users.id, userId))
    .returning({ failedAttempts: users.failedAttempts })
    .get();
  if (!row || row.failedAttempts < MAX_FAILED_ATTEMPTS) return false;
  const until = new Date(clock.now().getTime() + lockoutMinutes(env) * 60_000);
  db.update(users).set({ disabled: true, lockedUntil: until.toISOString() }).where(eq(users.id, userId)).run();
  endUserAccess(db, userId);
  tellOwner({ db, clock }, userId, { kind: "accountLocked", until }, client);
  return true;
}

/** The user proved who they are: the count restarts, and a lock whose time is over is lifted. */
export function clearFailures({ db, clock }: Pick<Services, "db" | "clock">, userId: number): void {
  db.update(users).set({ failedAttempts: 0 }).where(eq(users.id, userId)).run();
  db.update(users)
    .set({ disabled: false, lockedUntil: null })
    .where(and(eq(users.id, userId), isNotNull(users.lockedUntil), lte(users.lockedUntil, clock.now().toISOString())))
    .run();
}

/**
 * A completed password reset (docs/decisions/163): the owner proved who they are, so the count
 * restarts and a lock for wrong secrets ends at once; an operator's disabling (no lock time) stays.
 */
export function endTimedLock(db: Db, userId: number): void {
  db.update(users).set({ failedAttempts: 0 }).where(eq(users.id, userId)).run();
  db.update(users)
    .set({ disabled: false, lockedUntil: null })
    .where(and(eq(users.id, userId), isNotNull(users.lockedUntil)))
    .run();
}

/** A message the platform "sends", as the outbox keeps it. */
export type OutboxMessage = {
  to: string;
  username: string;
  channel: "sms" | "email";
  subject?: string | null;
  body: string;
  code?: string | null;
};

/** Who hears of each message sent through a database's outbox besides the outbox (decision 168). */
const outboxEchoes = new WeakMap<Db, (message: OutboxMessage) => void>();

/** Every message later sent through `db`'s outbox is given to `echo` too; null: to none. */
export function echoOutbox(db: Db, echo: ((message: OutboxMessage) => void) | null): void {
  if (echo) outboxEchoes.set(db, echo);
  else outboxEchoes.delete(db);
}

/** The demo's logins (README "Run it"): their messages are the ones printed. */
const isDemoUser = (username: string) => username.toLowerCase().startsWith("demo.");

/**
 * A demo user's message as the platform's console shows it while /dev/outbox is off (decision 168):
 * the channel, the address, the user and the text (the code is in it, and said again). Another
 * user's message is not printed.
 */
export function printOutboxMessage(message: OutboxMessage, print: (text: string) => void): void {
  if (!isDemoUser(message.username)) return;
  const lines = [
    `--- outbox: ${message.channel} to ${message.to} (${message.username}) ---`,
    ...(message.subject ? [`Subject: ${message.subject}`] : []),
    message.body,
    ...(message.code ? [`Code: ${message.code}`] : []),
    "---",
  ];
  print(`${lines.join("\n")}\n`);
}

/** What the platform "sends" lands in the outbox (design: demo data set). */
export function send(db: Db, clock: Clock, message: OutboxMessage): void {
  db.insert(outbox)
    .values({
      ...message,
      subject: message.subject ?? null,
      code: message.code ?? null,
      createdAt: clock.now().toISOString(),
    })
    .run();
  outboxEchoes.get(db)?.(message);
}

export function setPassword(db: Db, userId: number, password: string): void {
  db.update(users)
    .set({ passwordHash: hashSecret(password), forceChangePassword: false })
    .where(eq(users.id, userId))
    .run();
}

/**
 * The hash of a password just proven right, made again under the current pepper when it is not
 * (made before the pepper, or under a key being rotated out: docs/decisions/183). Nothing else of
 * the account changes.
 */
export function upgradePasswordHash(db: Db, user: { id: number; passwordHash: string }, password: string): void {
  if (!needsRehash(user.passwordHash)) return;
  db.update(users)
    .set({ passwordHash: hashSecret(password) })
    .where(eq(users.id, user.id))
    .run();
}

/**
 * The password and answer hashes not under the current pepper, for the operator at start
 * (docs/decisions/183): made before the pepper, under an older key still in the list (both made
 * again at their owner's next sign-in), or under a key no longer in it (they can no longer be
 * verified: their owners must reset).
 */
export function hashesNotUnderCurrentPepper(db: Db): { unpeppered: number; olderKey: number; unknownKey: number } {
  const counts = { unpeppered: 0, olderKey: 0, unknownKey: 0 };
  const hashes = [
    ...db.select({ hash: users.passwordHash }).from(users).all(),
    ...db.select({ hash: securityQuestions.answerHash }).from(securityQuestions).all(),
  ];
  for (const { hash } of hashes) {
    const id = pepperIdOf(hash);
    if (id === null) counts.unpeppered++;
    else if (id === currentPepperId()) continue;
    else if (isKnownPepper(id)) counts.olderKey++;
    else counts.unknownKey++;
  }
  return counts;
}

export function securityQuestionsOf(db: Db, userId: number) {
  return db
    .select()
    .from(securityQuestions)
    .where(eq(securityQuestions.userId, userId))
    .orderBy(asc(securityQuestions.position))
    .all();
}

/** Replaces the user's two questions; answers are kept only as hashes of their normal form. */
export function setSecurityQuestions(db: Db, userId: number, pairs: Array<{ question: string; answer: string }>): void {
  db.transaction((tx) => {
    tx.delete(securityQuestions).where(eq(securityQuestions.userId, userId)).run();
    pairs.forEach((pair, i) => {
      tx.insert(securityQuestions)
        .values({
          userId,
          position: i + 1,
          question: pair.question.trim(),
          answerHash: hashSecret(normaliseAnswer(pair.answer)),
        })
        .run();
    });
    tx.update(users).set({ mustSetSecurityQuestions: false }).where(eq(users.id, userId)).run();
  });
}

/** Both answers right, in the order of the questions. Every hash is checked, so timing says nothing. */
export function answersMatch(db: Db, userId: number, answers: string[]): boolean {
  const questions = securityQuestionsOf(db, userId);
  if (questions.length === 0 || questions.length !== answers.length) return false;
  const results = questions.map((q, i) => verifySecret(normaliseAnswer(answers[i] ?? ""), q.answerHash));
  const right = results.every(Boolean);
  // both answers proven: a hash not under the current pepper is made again (docs/decisions/183)
  if (right) {
    questions.forEach((q, i) => {
      if (!needsRehash(q.answerHash)) return;
      db.update(securityQuestions)
        .set({ answerHash: hashSecret(normaliseAnswer(answers[i] ?? "")) })
        .where(eq(securityQuestions.id, q.id))
        .run();
    });
  }
  return right;
}
