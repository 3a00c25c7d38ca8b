import { randomInt } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { z } from "zod";
import { memorablePositions, pendingLoginSteps } from "../domain/login";
import { loginTickets, outbox, users } from "../db/schema";
import { DUMMY_HASH, verifySecret } from "../lib/password";
import { newToken, tokenDigest } from "../lib/tokens";
import { createSession, deleteSession } from "../sessions";
import { ApiError, MESSAGES, validate } from "./http";
import { type HandlerContext, json, type Route, noContent, open, signedIn } from "./router";

const LoginBody = z.object({
  username: z.string().trim().min(1).max(256),
  password: z.string().min(1).max(1024),
  user_type: z.enum(["client", "adviser"]),
});

const TICKET_MINUTES = 10;

export function sessionCookie(token: string, production: boolean): string {
  return `XPLANID=${token}; Path=/; HttpOnly; SameSite=Lax${production ? "; Secure" : ""}`;
}

const CLEARED_COOKIE = "XPLANID=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0";

/** A sign-in part-way through its steps: the portal keeps only this opaque ticket (design: sessions). */
function issueTicket(context: HandlerContext, userId: number, step: string, state: object): string {
  const ticket = newToken();
  const now = context.clock.now();
  context.db
    .insert(loginTickets)
    .values({
      ticketHash: tokenDigest(ticket),
      userId,
      step,
      state: JSON.stringify(state),
      createdAt: now.toISOString(),
      expiresAt: new Date(now.getTime() + TICKET_MINUTES * 60_000).toISOString(),
    })
    .run();
  return ticket;
}

/** spec 000 §7 POST auth/login: the password check and the first pending step. */
function login(body: unknown, context: HandlerContext) {
  const input = validate(LoginBody, body, "body");
  const { db, clock } = context;
  const user = db.select().from(users).where(eq(users.usernameKey, input.username.toLowerCase())).get();
  // The hash is checked even for an unknown user so the answer takes as long either way.
  const passwordRight = verifySecret(input.password, user?.passwordHash ?? DUMMY_HASH);
  if (!user) throw new ApiError(401, MESSAGES.badCredentials);
  if (!passwordRight) {
    db.update(users).set({ failedAttempts: sql`${users.failedAttempts} + 1` }).where(eq(users.id, user.id)).run();
    throw new ApiError(401, MESSAGES.badCredentials);
  }
  const wantedRole = input.user_type === "client" ? "ClientUser" : "User";
  if (user.roleName !== wantedRole) throw new ApiError(401, MESSAGES.badCredentials);
  if (user.disabled) throw new ApiError(403, MESSAGES.disabled);

  db.update(users).set({ failedAttempts: 0 }).where(eq(users.id, user.id)).run();
  const steps = pendingLoginSteps(user);
  const first = steps[0];
  if (first) {
    const extra: Record<string, unknown> = {};
    const state: Record<string, unknown> = { steps };
    if (first === "MemorableCharactersRequired" && user.memorableWord) {
      const positions = memorablePositions([...user.memorableWord].length, (max) => randomInt(max));
      state.positions = positions;
      extra.memorableQuestions = positions;
      extra.memorableWordHint = user.memorableWordHint;
    }
    if (first === "MfaRequired" && user.mfaMethod && user.mfaMethod !== "token") {
      // The one-time code "sent" by sms or email lands in the outbox (design: demo data set).
      const code = String(randomInt(0, 1_000_000)).padStart(6, "0");
      const to = user.mfaMethod === "sms" ? user.mfaMobile : user.mfaEmail;
      state.codeHash = tokenDigest(code);
      db.insert(outbox)
        .values({
          to: to ?? user.username,
          username: user.username,
          channel: user.mfaMethod,
          subject: user.mfaMethod === "email" ? "Your Client Online security code" : null,
          body: `Your Client Online security code is ${code}. It expires in ${TICKET_MINUTES} minutes.`,
          code,
          createdAt: clock.now().toISOString(),
        })
        .run();
      extra.mfa_method = user.mfaMethod;
    }
    const ticket = issueTicket(context, user.id, first, state);
    return json({ login_status: first, role_name: user.roleName, login_ticket: ticket, ...extra });
  }

  const token = createSession(db, clock, user.id);
  db.update(users)
    .set({ previousLogin: user.lastLogin, lastLogin: clock.now().toISOString() })
    .where(eq(users.id, user.id))
    .run();
  return {
    ...json({ login_status: "LoginSuccess", role_name: user.roleName }),
    cookies: [sessionCookie(token, context.env.nodeEnv === "production")],
  };
}

export const authRoutes: Route[] = [
  open("POST", "/auth/login", (request, context) => login(request.body, context)),
  signedIn("DELETE", "/resourceful/session", (_request, context) => {
    deleteSession(context.db, context.caller.session.id);
    return { ...noContent(), cookies: [CLEARED_COOKIE] };
  }),
];
