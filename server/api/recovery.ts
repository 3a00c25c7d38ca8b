import { randomInt } from "node:crypto";
import { and, eq, lt, sql } from "drizzle-orm";
import { z } from "zod";
import {
  accountDisabled,
  answersMatch,
  clearFailures,
  endUserAccess,
  recordFailure,
  securityQuestionsOf,
  send,
  setPassword,
} from "../domain/accounts";
import { codeMatches } from "../domain/mfa";
import { noteAuth } from "../lib/auth-log";
import { passwordProblem } from "../domain/password-policy";
import { entities, passwordResets, users } from "../db/schema";
import { newToken, tokenDigest } from "../lib/tokens";
import type { UserRow } from "../sessions";
import { ApiError, MESSAGES, validate } from "./http";
import { type HandlerContext, json, open, type Route } from "./router";

// spec 000 §4 forgotten password flow and §7 forgotten_password, forgot/username (docs/decisions/042)

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

/** The live reset of a reference with its user, or the 'incorrect or invalid' refusal. */
function openReset(context: HandlerContext, reference: string): { reset: Reset; user: UserRow | null } {
  const reset = context.db
    .select()
    .from(passwordResets)
    .where(eq(passwordResets.referenceHash, tokenDigest(reference)))
    .get();
  if (!reset || context.clock.now().getTime() > new Date(reset.expiresAt).getTime()) {
    throw new ApiError(400, MESSAGES.resetCodeIncorrect);
  }
  const user = reset.userId === null ? null : (userById(context, reset.userId) ?? null);
  noteAuth(context, { userId: user?.id ?? null, method: reset.method });
  return { reset, user };
}

/** A wrong reset code or answer counts like any wrong secret (docs/decisions/041). */
function failed(context: HandlerContext, user: UserRow, message: string): never {
  if (recordFailure(context, user.id)) {
    noteAuth(context, { lockedNow: true });
    throw new ApiError(403, MESSAGES.disabled);
  }
  throw new ApiError(400, message);
}

function startReset(context: HandlerContext, body: unknown) {
  const { username } = validate(ForgottenBody, body, "body");
  const { db, clock } = context;
  const now = clock.now();
  db.delete(passwordResets).where(lt(passwordResets.expiresAt, now.toISOString())).run();
  const user = db.select().from(users).where(eq(users.usernameKey, username.toLowerCase())).get();
  noteAuth(context, { userId: user?.id ?? null });
  const questions = user ? securityQuestionsOf(db, user.id) : [];
  const method = questions.length === 2 ? "questions" : "code";
  const reference = newToken();
  let code: string | null = null;
  if (user) {
    // a newer reset voids the older ones
    db.delete(passwordResets).where(eq(passwordResets.userId, user.id)).run();
    if (method === "code") code = String(randomInt(0, 100_000_000)).padStart(8, "0");
  }
  db.insert(passwordResets)
    .values({
      referenceHash: tokenDigest(reference),
      userId: user?.id ?? null,
      method,
      codeHash: code ? tokenDigest(code) : null,
      createdAt: now.toISOString(),
      expiresAt: new Date(now.getTime() + RESET_MINUTES * 60_000).toISOString(),
    })
    .run();
  if (user && code) sendResetCode(context, user, code);
  if (method === "questions")
    return json({ reset_method: method, user_id: reference, questions: questions.map((q) => q.question) });
  // An unknown username answers the same as a user without questions: nothing tells them apart.
  return json({ reset_method: method, user_id: reference });
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

function checkCode(context: HandlerContext, query: unknown) {
  const input = validate(CheckQuery, query, "query");
  const { reset, user } = openReset(context, input.user_id);
  if (!user || reset.method !== "code") throw new ApiError(400, MESSAGES.resetCodeIncorrect);
  if (accountDisabled(user, context.clock)) throw new ApiError(403, MESSAGES.disabled);
  if (!codeMatches(input.reset_code.replace(/\s+/g, ""), reset.codeHash))
    failed(context, user, MESSAGES.resetCodeIncorrect);
  return json({ valid: true });
}

function completeReset(context: HandlerContext, body: unknown) {
  const input = validate(ResetBody, body, "body");
  const { db } = context;
  const { reset, user } = openReset(context, input.user_id);
  if (reset.method === "code") {
    if (input.reset_code === undefined) throw new ApiError(400, MESSAGES.argumentsIncorrect);
    if (!user) throw new ApiError(400, MESSAGES.resetCodeIncorrect);
    if (accountDisabled(user, context.clock)) throw new ApiError(403, MESSAGES.disabled);
    if (!codeMatches(input.reset_code.replace(/\s+/g, ""), reset.codeHash))
      failed(context, user, MESSAGES.resetCodeIncorrect);
  } else {
    if (input.answers === undefined || !user) throw new ApiError(400, MESSAGES.argumentsIncorrect);
    if (accountDisabled(user, context.clock)) throw new ApiError(403, MESSAGES.disabled);
    // spec 000 §8: wrong answers are 'One or more of the arguments are missing or incorrect.'
    if (!answersMatch(db, user.id, input.answers)) failed(context, user, MESSAGES.argumentsIncorrect);
  }
  const problem = passwordProblem(input.new_password, user);
  if (problem) throw new ApiError(400, problem);
  setPassword(db, user.id, input.new_password);
  clearFailures(context, user.id);
  // a new password ends every session, sign-in part-way and reset of the user
  endUserAccess(db, user.id);
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
    const questions =
      reset.method === "questions" && user ? securityQuestionsOf(context.db, user.id).map((q) => q.question) : [];
    return json({ questions });
  }),
  open("POST", "/resourceful/forgot/username", (request, context) => forgottenUsername(context, request.body)),
];
