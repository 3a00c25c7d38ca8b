import { and, asc, eq, ne, sql } from "drizzle-orm";
import type { Clock } from "../clock";
import type { Db } from "../db/connection";
import { loginTickets, outbox, passwordResets, pendingMfaDevices, securityQuestions, sessions, users } from "../db/schema";
import { hashSecret, verifySecret } from "../lib/password";
import { normaliseAnswer } from "./security-questions";

/** Consecutive wrong secrets after which the account is disabled (docs/decisions/041). */
export const MAX_FAILED_ATTEMPTS = 5;

/** Ends every way in for a user: sessions (but the one kept), sign-ins part-way, resets, pending devices. */
export function endUserAccess(db: Db, userId: number, keepSessionId?: number): void {
  db.delete(sessions)
    .where(keepSessionId === undefined ? eq(sessions.userId, userId) : and(eq(sessions.userId, userId), ne(sessions.id, keepSessionId)))
    .run();
  db.delete(loginTickets).where(eq(loginTickets.userId, userId)).run();
  if (keepSessionId === undefined) {
    db.delete(passwordResets).where(eq(passwordResets.userId, userId)).run();
    db.delete(pendingMfaDevices).where(eq(pendingMfaDevices.userId, userId)).run();
  }
}

/**
 * One more wrong secret (password, code, memorable characters, reset code, answers). Answers true
 * when this failure locked the account: it is then disabled and every way in is closed.
 */
export function recordFailure(db: Db, userId: number): boolean {
  const row = db
    .update(users)
    .set({ failedAttempts: sql`${users.failedAttempts} + 1` })
    .where(eq(users.id, userId))
    .returning({ failedAttempts: users.failedAttempts, disabled: users.disabled })
    .get();
  if (!row || row.disabled || row.failedAttempts < MAX_FAILED_ATTEMPTS) return false;
  db.update(users).set({ disabled: true }).where(eq(users.id, userId)).run();
  endUserAccess(db, userId);
  return true;
}

export function clearFailures(db: Db, userId: number): void {
  db.update(users).set({ failedAttempts: 0 }).where(eq(users.id, userId)).run();
}

/** What the platform "sends" lands in the outbox (design: demo data set). */
export function send(
  db: Db,
  clock: Clock,
  message: { to: string; username: string; channel: "sms" | "email"; subject?: string | null; body: string; code?: string | null },
): void {
  db.insert(outbox)
    .values({ ...message, subject: message.subject ?? null, code: message.code ?? null, createdAt: clock.now().toISOString() })
    .run();
}

export function setPassword(db: Db, userId: number, password: string): void {
  db.update(users).set({ passwordHash: hashSecret(password), forceChangePassword: false }).where(eq(users.id, userId)).run();
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
        .values({ userId, position: i + 1, question: pair.question.trim(), answerHash: hashSecret(normaliseAnswer(pair.answer)) })
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
  return results.every(Boolean);
}
