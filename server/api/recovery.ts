import { randomInt } from "node:crypto";
import { and, eq, lt, or, sql } from "drizzle-orm";
import { z } from "zod";
import {
  accountDisabled,
  answersMatch,
  endTimedLock,
  endUserAccess,
  securityQuestionsOf,
  send,
  setPassword,
} from "../domain/accounts";
import { codeMatches } from "../domain/mfa";
import { tellOwner } from "../domain/notices";
import { passwordProblem } from "../domain/password-policy";
import { decoyFor, decoyKey } from "../domain/recovery-decoys";
import {
  clearRecoveryFailures,
  pruneRecoveryAttempts,
  recordRecoveryFailure,
  recoveryPausedUntil,
  usernameKeyOf,
} from "../domain/recovery-limit";
import { entities, passwordResets, users } from "../db/schema";
import { noteAuth } from "../lib/auth-log";
import { DUMMY_HASH, verifySecret } from "../lib/password";
import { newToken, tokenDigest } from "../lib/tokens";
import type { UserRow } from "../sessions";
import { ApiError, MESSAGES, validate } from "./http";
import { type HandlerContext, json, open, type Route } from "./router";

// spec 000 §4 forgotten password flow and §7 forgotten_password, forgot/username (docs/decisions/042).
// Known, unknown and locked usernames answer alike, and wrong codes and answers are counted per
// username apart from sign-in failures (docs/decisions/163); the owner is told of a reset (164).

/** A reset (its reference and code) lives this long. */
export const RESET_MINUTES = 30;

const ForgottenBody = z.object({ username: z.string().trim().min(1).max(256) });
const Reference = z.string().trim().min(1).max(200);
const CheckQuery = z.object({ user_id: Reference, reset_code: z.string().max(40) });
const QuestionsQuery = z.object({ user_id: Reference });
const ResetBody = z.object({
  user_id: Reference,
  reset_code: z.string().max(40).optional(),
  answers: z.array(z.string().max(2000)).length(2).optional(),
  new_password: z.string().max(1024),
});
const UsernameBody = z.object({
  preferred_email: z.string().trim().min(1).max(320),
  role_type: z.literal("client"),
  dob: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "Expected YYYY-MM-DD"),
});

type Reset = typeof passwordResets.$inferSelect;

function userById(context: HandlerContext, id: number): UserRow | undefined {
  return context.db.select().from(users).where(eq(users.id, id)).get();
}

const paused = () => new ApiError(429, MESSAGES.recoveryPaused);

/**
 * The live reset of a reference with its user, or the 'incorrect or invalid' refusal; the
 * username's pause refusal while its password reset is paused.
 */
function openReset(context: HandlerContext, reference: string): { reset: Reset; user: UserRow | null } {
  const reset = context.db
    .select()
    .from(passwordResets)
    .where(eq(passwordResets.referenceHash, tokenDigest(reference)))
    .get();
  if (!reset || context.clock.now().getTime() > new Date(reset.expiresAt).getTime()) {
    throw new ApiError(400, MESSAGES.resetCodeIncorrect);
  }
  if (reset.usernameKey !== null && recoveryPausedUntil(context, reset.usernameKey)) throw paused();
  const user = reset.userId === null ? null : (userById(context, reset.userId) ?? null);
  noteAuth(context, { userId: user?.id ?? null, method: reset.method });
  return { reset, user };
}

/**
 * A wrong reset code or answer counts against the username asked for, known or not, never towards
 * the account's lockout (docs/decisions/163). The one that reaches the limit pauses the username's
 * password reset, ends its resets and tells the owner.
 */
function failed(context: HandlerContext, reset: Reset, user: UserRow | null, message: string): never {
  const key = reset.usernameKey;
  const until = key === null ? null : recordRecoveryFailure(context, key);
  if (key === null || until === null) throw new ApiError(400, message);
  context.db.delete(passwordResets).where(eq(passwordResets.usernameKey, key)).run();
  if (user) tellOwner(context, user.id, { kind: "recoveryPaused", until }, context.client);
  throw paused();
}

/** The step a username is shown: its own (questions when it has two), or an unknown username's plausible one. */
function stepOf(context: HandlerContext, user: UserRow | undefined, key: string) {
  if (!user) return decoyFor(decoyKey(context.db), key);
  const questions = securityQuestionsOf(context.db, user.id).map((q) => q.question);
  return questions.length === 2 ? { method: "questions" as const, questions } : { method: "code" as const };
}

function startReset(context: HandlerContext, body: unknown) {
  const { username } = validate(ForgottenBody, body, "body");
  const { db, clock } = context;
  const now = clock.now();
  const key = usernameKeyOf(username);
  db.delete(passwordResets).where(lt(passwordResets.expiresAt, now.toISOString())).run();
  pruneRecoveryAttempts(context);
  if (recoveryPausedUntil(context, key)) throw paused();
  const user = db.select().from(users).where(eq(users.usernameKey, key)).get();
  noteAuth(context, { userId: user?.id ?? null });
  const step = stepOf(context, user, key);
  const reference = newToken();
  const code = user && step.method === "code" ? String(randomInt(0, 100_000_000)).padStart(8, "0") : null;
  // a newer reset for the username voids the older ones
  db.delete(passwordResets)
    .where(
      user
        ? or(eq(passwordResets.userId, user.id), eq(passwordResets.usernameKey, key))
        : eq(passwordResets.usernameKey, key),
    )
    .run();
  db.insert(passwordResets)
    .values({
      referenceHash: tokenDigest(reference),
      userId: user?.id ?? null,
      method: step.method,
      codeHash: code ? tokenDigest(code) : null,
      usernameKey: key,
      createdAt: now.toISOString(),
      expiresAt: new Date(now.getTime() + RESET_MINUTES * 60_000).toISOString(),
    })
    .run();
  if (user && code) sendResetCode(context, user, code);
  // An unknown username is shown a known one's step: a code step (nothing sent), or plausible questions.
  if (step.method === "questions")
    return json({ reset_method: step.method, user_id: reference, questions: step.questions });
  return json({ reset_method: step.method, user_id: reference });
}

function sendResetCode(context: HandlerContext, user: UserRow, code: string): void {
  const entity = context.db.select().from(entities).where(eq(entities.id, user.entityId)).get();
  const email = entity?.preferredEmail ?? user.mfaEmail;
  const body = `Your Client Online password reset code is ${code}. It expires in ${RESET_MINUTES} minutes.`;
  if (email) {
    send(context.db, context.clock, {
      to: email,
      username: user.username,
      channel: "email",
      subject: "Your Client Online password reset code",
      body,
      code,
    });
  } else if (user.mfaMobile) {
    send(context.db, context.clock, { to: user.mfaMobile, username: user.username, channel: "sms", body, code });
  }
}

/** Whether the reset's code is right; an unknown username's never is. */
function rightCode(reset: Reset, user: UserRow | null, code: string): boolean {
  return user !== null && codeMatches(code.replace(/\s+/g, ""), reset.codeHash);
}

/** Whether both answers are right; an unknown username's never are, after the same work as a known one's. */
function rightAnswers(context: HandlerContext, user: UserRow | null, answers: string[]): boolean {
  if (user) return answersMatch(context.db, user.id, answers);
  for (const answer of answers) verifySecret(answer, DUMMY_HASH);
  return false;
}

function checkCode(context: HandlerContext, query: unknown) {
  const input = validate(CheckQuery, query, "query");
  const { reset, user } = openReset(context, input.user_id);
  if (reset.method !== "code") throw new ApiError(400, MESSAGES.resetCodeIncorrect);
  if (!rightCode(reset, user, input.reset_code)) failed(context, reset, user, MESSAGES.resetCodeIncorrect);
  return json({ valid: true });
}

function completeReset(context: HandlerContext, body: unknown) {
  const input = validate(ResetBody, body, "body");
  const { db } = context;
  const { reset, user } = openReset(context, input.user_id);
  if (reset.method === "code") {
    if (input.reset_code === undefined) throw new ApiError(400, MESSAGES.argumentsIncorrect);
    if (!rightCode(reset, user, input.reset_code)) failed(context, reset, user, MESSAGES.resetCodeIncorrect);
  } else {
    if (input.answers === undefined) throw new ApiError(400, MESSAGES.argumentsIncorrect);
    // spec 000 §8: wrong answers are 'One or more of the arguments are missing or incorrect.'
    if (!rightAnswers(context, user, input.answers)) failed(context, reset, user, MESSAGES.argumentsIncorrect);
  }
  // only a right code or answers get here, so only the owner learns the account is disabled
  if (!user) throw new ApiError(400, MESSAGES.resetCodeIncorrect);
  if (user.lockedUntil === null && accountDisabled(user, context.clock)) throw new ApiError(403, MESSAGES.disabled);
  const problem = passwordProblem(input.new_password, user);
  if (problem) throw new ApiError(400, problem);
  setPassword(db, user.id, input.new_password);
  endTimedLock(db, user.id);
  if (reset.usernameKey !== null) clearRecoveryFailures(db, reset.usernameKey);
  // a new password ends every session, sign-in part-way and reset of the user
  endUserAccess(db, user.id);
  tellOwner(context, user.id, { kind: "passwordReset" }, context.client);
  return json({ password_changed: true });
}

function forgottenUsername(context: HandlerContext, body: unknown) {
  const input = validate(UsernameBody, body, "body");
  const { db } = context;
  const matches = db
    .select({ id: users.id, username: users.username, email: entities.preferredEmail })
    .from(entities)
    .innerJoin(users, and(eq(users.entityId, entities.id), eq(users.roleName, "ClientUser")))
    .where(
      and(
        eq(entities.entityType, "client"),
        eq(entities.dob, input.dob),
        sql`lower(${entities.preferredEmail}) = ${input.preferred_email.toLowerCase()}`,
      ),
    )
    .all();
  noteAuth(context, { userId: matches[0]?.id ?? null });
  if (matches.length === 0) throw new ApiError(400, MESSAGES.usernameMismatch);
  for (const match of matches) {
    send(db, context.clock, {
      to: match.email ?? input.preferred_email,
      username: match.username,
      channel: "email",
      subject: "Your Client Online username",
      body: `Your Client Online username is ${match.username}.`,
      code: match.username,
    });
  }
  return json({ sent: true });
}

export const recoveryRoutes: Route[] = [
  open("POST", "/resourceful/forgotten_password", (request, context) => startReset(context, request.body)),
  open("GET", "/resourceful/forgotten_password", (request, context) => checkCode(context, request.query)),
  open("PUT", "/resourceful/forgotten_password", (request, context) => completeReset(context, request.body)),
  open("GET", "/resourceful/session/password_reset_questions", (request, context) => {
    const input = validate(QuestionsQuery, request.query, "query");
    const { reset, user } = openReset(context, input.user_id);
    if (reset.method !== "questions") return json({ questions: [] });
    if (user) return json({ questions: securityQuestionsOf(context.db, user.id).map((q) => q.question) });
    const decoy = reset.usernameKey === null ? null : decoyFor(decoyKey(context.db), reset.usernameKey);
    return json({ questions: decoy?.method === "questions" ? decoy.questions : [] });
  }),
  open("POST", "/resourceful/forgot/username", (request, context) => forgottenUsername(context, request.body)),
];
