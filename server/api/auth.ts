import { randomInt } from "node:crypto";
import { eq } from "drizzle-orm";
import { z } from "zod";
import {
  accountDisabled,
  clearFailures,
  recordFailure,
  send,
  setPassword,
  setSecurityQuestions,
  upgradePasswordHash,
} from "../domain/accounts";
import { IDENTITY_STEPS, type LoginStatus, memorablePositions, pendingLoginSteps } from "../domain/login";
import {
  allowedMethods,
  canEnrol,
  cleanCode,
  checkDeviceCode,
  codeMatches,
  codeMessage,
  destinationOf,
  deviceName,
  ENROLMENT_PROBLEM,
  enrolmentDetails,
  maskedDestination,
  MFA_METHODS,
  type MfaMethod,
  methodsView,
  newCode,
} from "../domain/mfa";
import { tellOwner } from "../domain/notices";
import { isCommonPassword, passwordProblem } from "../domain/password-policy";
import { answerMinLength, DEFAULT_SECURITY_QUESTIONS, securityQuestionsProblem } from "../domain/security-questions";
import { loginTickets, termsAgreements, users } from "../db/schema";
import { platformVersion } from "../env";
import { noteAuth } from "../lib/auth-log";
import { DUMMY_HASH, verifySecret } from "../lib/password";
import { newToken, tokenDigest } from "../lib/tokens";
import { isReusedTokenCode, matchTokenCode, newTotpSecret, otpauthUri } from "../lib/totp";
import { toldClient } from "../lib/request-origin";
import { createSession, deleteSession, type UserRow } from "../sessions";
import { ApiError, MESSAGES, validate } from "./http";
import { type ApiResponse, type HandlerContext, json, noContent, open, type Route, signedIn } from "./router";
import { sitePage } from "./site";

const LoginBody = z.object({
  username: z.string().trim().min(1).max(256),
  password: z.string().min(1).max(1024),
  user_type: z.enum(["client", "adviser"]),
});

/** A sign-in part-way lives this long per step (docs/decisions/040). */
export const TICKET_MINUTES = 10;
/** Codes the user may ask to be sent again during one sign-in. */
export const MAX_RESENDS = 3;
const TOTP_ISSUER = "Client Online";

export function sessionCookie(token: string, production: boolean): string {
  return `XPLANID=${token}; Path=/; HttpOnly; SameSite=Lax${production ? "; Secure" : ""}`;
}

const CLEARED_COOKIE = "XPLANID=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0";

type Step = Exclude<LoginStatus, "LoginSuccess">;
type Device = { id: string; method: MfaMethod; name: string; totpSecret?: string };

/** What the platform remembers of a sign-in part-way (never a password or a code, only hashes). */
type TicketState = {
  /** The steps still to take; the first is the one the ticket is at. */
  steps: Step[];
  positions?: number[];
  codeHash?: string | null;
  resends?: number;
  device?: Device;
  /** The user has just enrolled a device and verifies once more (spec 000 §4 step 4). */
  enrolled?: boolean;
  /** The password signed in with is on the common and breached list: the forced change says so (decision 180). */
  passwordCommon?: boolean;
};

type Ticketed = { ticket: string; rowId: number; user: UserRow; state: TicketState };

const Ticket = z.string().min(1).max(200);
const TicketBody = z.object({ login_ticket: Ticket });

function currentStep(state: TicketState): Step {
  const step = state.steps[0];
  if (!step) throw new Error("a ticket without a step");
  return step;
}

function issueTicket(context: HandlerContext, userId: number, state: TicketState): string {
  const ticket = newToken();
  const now = context.clock.now();
  context.db
    .insert(loginTickets)
    .values({
      ticketHash: tokenDigest(ticket),
      userId,
      step: currentStep(state),
      state: JSON.stringify(state),
      createdAt: now.toISOString(),
      expiresAt: new Date(now.getTime() + TICKET_MINUTES * 60_000).toISOString(),
    })
    .run();
  return ticket;
}

/** The ticket's sign-in, if it is alive, its user still enabled and it is at one of the steps. */
function openTicket(context: HandlerContext, ticket: string, steps: readonly Step[]): Ticketed {
  const { db, clock } = context;
  const row = db
    .select()
    .from(loginTickets)
    .where(eq(loginTickets.ticketHash, tokenDigest(ticket)))
    .get();
  if (!row) throw new ApiError(401, MESSAGES.ticketInvalid);
  noteAuth(context, { userId: row.userId });
  const user = db.select().from(users).where(eq(users.id, row.userId)).get();
  if (!user || clock.now().getTime() > new Date(row.expiresAt).getTime()) {
    db.delete(loginTickets).where(eq(loginTickets.id, row.id)).run();
    throw new ApiError(401, MESSAGES.ticketInvalid);
  }
  if (accountDisabled(user, context.clock)) {
    db.delete(loginTickets).where(eq(loginTickets.id, row.id)).run();
    throw new ApiError(403, MESSAGES.disabled);
  }
  if (!steps.includes(row.step as Step)) {
    throw new ApiError(409, MESSAGES.wrongStep, MESSAGES.wrongStep, { login_status: row.step });
  }
  return { ticket, rowId: row.id, user, state: JSON.parse(row.state) as TicketState };
}

function saveState(context: HandlerContext, t: Ticketed): void {
  context.db
    .update(loginTickets)
    .set({ state: JSON.stringify(t.state) })
    .where(eq(loginTickets.id, t.rowId))
    .run();
}

function reloadUser(context: HandlerContext, userId: number): UserRow {
  const user = context.db.select().from(users).where(eq(users.id, userId)).get();
  if (!user) throw new ApiError(401, MESSAGES.ticketInvalid);
  return user;
}

/** Sends a one-time code by sms or email (to the outbox); answers the hash kept in the ticket. */
function sendCode(context: HandlerContext, user: UserRow, method: "sms" | "email"): string {
  const code = newCode();
  send(context.db, context.clock, {
    to: destinationOf(user, method) ?? user.username,
    username: user.username,
    ...codeMessage(method, code),
  });
  return tokenDigest(code);
}

/** What entering the current step needs: a code sent, memorable positions chosen. */
function prepareStep(context: HandlerContext, user: UserRow, state: TicketState): void {
  const step = currentStep(state);
  if (step === "MfaRequired") {
    state.codeHash =
      user.mfaMethod === "sms" || user.mfaMethod === "email" ? sendCode(context, user, user.mfaMethod) : null;
  } else if (step === "MfaEnrolmentValidateDevice" && state.device) {
    state.codeHash = state.device.method === "token" ? null : sendCode(context, user, state.device.method);
  } else if (step === "MemorableCharactersRequired") {
    const length = [...(user.memorableWord ?? "")].length;
    state.positions = memorablePositions(length, (max) => randomInt(max), state.positions);
  }
}

/** The step's data, as docs/platform-api.md lists it per login_status. */
function stepData(context: HandlerContext, user: UserRow, state: TicketState): Record<string, unknown> {
  const step = currentStep(state);
  switch (step) {
    case "MfaRequired": {
      const method = user.mfaMethod;
      return {
        mfa_method: method,
        destination: method ? maskedDestination(user, method) : null,
        enrolled: state.enrolled === true,
      };
    }
    case "MfaEnrolmentLinkDevice":
      return { mfa_methods: methodsView(user) };
    case "MfaEnrolmentValidateDevice":
    case "MfaEnrolmentLinkDeviceInvalidOtp": {
      const device = state.device;
      if (!device) return {};
      const token =
        step === "MfaEnrolmentValidateDevice" && device.method === "token" && device.totpSecret
          ? { token_secret: device.totpSecret, otpauth_uri: otpauthUri(device.totpSecret, user.username, TOTP_ISSUER) }
          : {};
      return {
        device_id: device.id,
        device_name: device.name,
        mfa_method: device.method,
        destination: maskedDestination(user, device.method),
        ...token,
      };
    }
    case "MemorableCharactersRequired":
      return { memorableQuestions: state.positions ?? [], memorableWordHint: user.memorableWordHint };
    case "ForceChangePassword":
      return state.passwordCommon ? { reason: "common" } : {};
    case "SiteTerms":
      return { terms: sitePage(context.db, "site-terms", user.locale) };
    case "SetSecurityQuestions":
      return {
        default_questions: [...DEFAULT_SECURITY_QUESTIONS],
        answer_min_length: answerMinLength(platformVersion(context.env)),
      };
  }
}

function stepBody(context: HandlerContext, user: UserRow, ticket: string, state: TicketState) {
  return {
    login_status: currentStep(state),
    role_name: user.roleName,
    login_ticket: ticket,
    ...stepData(context, user, state),
  };
}

/** The sign-in is complete: a session, its cookie, and the last-login times moved on. */
function completeSignIn(context: HandlerContext, user: UserRow): ApiResponse {
  const { db, clock } = context;
  clearFailures(context, user.id);
  const token = createSession(db, clock, user.id, toldClient(context.client));
  db.update(users)
    .set({ previousLogin: user.lastLogin, lastLogin: clock.now().toISOString() })
    .where(eq(users.id, user.id))
    .run();
  return {
    ...json({ login_status: "LoginSuccess", role_name: user.roleName }),
    cookies: [sessionCookie(token, context.env.nodeEnv === "production")],
  };
}

/** Enters the state's current step with a new ticket, or completes the sign-in when none is left. */
function enterStep(context: HandlerContext, user: UserRow, state: TicketState): ApiResponse {
  if (state.steps.length === 0) return completeSignIn(context, user);
  prepareStep(context, user, state);
  const ticket = issueTicket(context, user.id, state);
  return json(stepBody(context, user, ticket, state));
}

/** Leaves the ticket's step for the state's next one: the old ticket dies, a new one is issued. */
function moveOn(context: HandlerContext, t: Ticketed, user: UserRow = t.user): ApiResponse {
  context.db.delete(loginTickets).where(eq(loginTickets.id, t.rowId)).run();
  return enterStep(context, user, t.state);
}

/** The same step again (a retry): same ticket, state saved, the step's answer. */
function stay(context: HandlerContext, t: Ticketed) {
  saveState(context, t);
  return stepBody(context, t.user, t.ticket, t.state);
}

/** A wrong secret: counted; the failure that locks the account answers 403 with `lockedMessage`. */
function failed(context: HandlerContext, t: Ticketed, lockedMessage: string = MESSAGES.disabled): void {
  if (recordFailure(context, t.user.id)) {
    noteAuth(context, { lockedNow: true });
    throw new ApiError(403, lockedMessage);
  }
}

/** spec 000 §7 POST auth/login: the password check and the first pending step. */
function login(body: unknown, context: HandlerContext): ApiResponse {
  const input = validate(LoginBody, body, "body");
  const { db } = context;
  const user = db.select().from(users).where(eq(users.usernameKey, input.username.toLowerCase())).get();
  // The hash is checked even for an unknown user so the answer takes as long either way.
  const passwordRight = verifySecret(input.password, user?.passwordHash ?? DUMMY_HASH);
  noteAuth(context, { userId: user?.id ?? null });
  if (!user) throw new ApiError(401, MESSAGES.badCredentials);
  if (!passwordRight) {
    if (recordFailure(context, user.id)) {
      noteAuth(context, { lockedNow: true });
      throw new ApiError(403, MESSAGES.disabled);
    }
    throw new ApiError(401, MESSAGES.badCredentials);
  }
  const wantedRole = input.user_type === "client" ? "ClientUser" : "User";
  if (user.roleName !== wantedRole) throw new ApiError(401, MESSAGES.badCredentials);
  if (accountDisabled(user, context.clock)) throw new ApiError(403, MESSAGES.disabled);
  // the password is proven: its hash under the current pepper from now on (docs/decisions/183)
  upgradePasswordHash(db, user, input.password);

  // ASVS V2.1.7 (decision 180): a password set before the policy, now on the common and breached
  // list, signs in but is changed before the sign-in completes, after the second factor.
  const passwordCommon = isCommonPassword(input.password);
  const steps = pendingLoginSteps(user, passwordCommon);
  // The count of failures clears only once the user has proven who they are: for a user with a
  // second factor that is the code or the memorable characters, not the password alone.
  if (!steps.some((s) => IDENTITY_STEPS.has(s))) clearFailures(context, user.id);
  return enterStep(context, user, passwordCommon ? { steps, passwordCommon } : { steps });
}

/**
 * A sign-in whose user proved who they are without a password (a passkey, docs/decisions/100): the
 * same checks, steps and session as /auth/login, except that the passkey is the second factor, so
 * the identity steps (a code, the memorable characters) are skipped; the firm's others still follow.
 */
export function signInProven(context: HandlerContext, user: UserRow): ApiResponse {
  noteAuth(context, { userId: user.id });
  if (accountDisabled(user, context.clock)) throw new ApiError(403, MESSAGES.disabled);
  clearFailures(context, user.id);
  const steps = pendingLoginSteps(user).filter((s) => !IDENTITY_STEPS.has(s));
  return enterStep(context, user, { steps });
}

const PasswordBody = TicketBody.extend({ new_password: z.string().max(1024) });

const TermsBody = z.discriminatedUnion("agree", [
  TicketBody.extend({ agree: z.literal(true), terms_text: z.string().min(1).max(200_000) }),
  TicketBody.extend({ agree: z.literal(false) }),
]);

const QuestionsBody = TicketBody.extend({
  questions: z.array(z.object({ question: z.string().max(2000), answer: z.string().max(2000) })).length(2),
});

const DeviceBody = TicketBody.extend({ method: z.enum(MFA_METHODS) });
const ValidateBody = TicketBody.extend({ code: z.string().max(20), device_id: z.string().max(200).optional() });
const MemorableBody = TicketBody.extend({ answers: z.array(z.string().max(8)).length(3) });

const ENROLMENT_STEPS = [
  "MfaEnrolmentLinkDevice",
  "MfaEnrolmentValidateDevice",
  "MfaEnrolmentLinkDeviceInvalidOtp",
] as const;
const MFA_STEPS = ["MfaRequired", ...ENROLMENT_STEPS] as const;

function sixDigits(code: string): string {
  const clean = cleanCode(code);
  if (!clean) throw new ApiError(400, "Invalid body: code: Expected six digits", MESSAGES.argumentsIncorrect);
  return clean;
}

/** spec 000 §4: a code at MfaRequired, or at device validation while enrolling. */
function validateCode(body: unknown, context: HandlerContext): ApiResponse {
  const input = validate(ValidateBody, body, "body");
  const t = openTicket(context, input.login_ticket, ["MfaRequired", "MfaEnrolmentValidateDevice"]);
  const { db, clock } = context;
  const step = currentStep(t.state);
  const code = sixDigits(input.code);

  if (step === "MfaRequired") {
    const { user } = t;
    noteAuth(context, { method: user.mfaMethod });
    let right = false;
    if (user.mfaMethod === "token") {
      const now = clock.now().getTime();
      const matched = matchTokenCode(user.mfaTotpSecret, code, now, user.mfaTotpLastStep);
      if (matched !== null) {
        db.update(users).set({ mfaTotpLastStep: matched }).where(eq(users.id, user.id)).run();
        right = true;
      } else if (isReusedTokenCode(user.mfaTotpSecret, code, now, user.mfaTotpLastStep)) {
        // a replay (ASVS V2.8.5, decision 181): refused and counted as a wrong code, and answered
        // as one; only the log and the owner are told that it was a code already used
        noteAuth(context, { reused: true });
        tellOwner(context, user.id, { kind: "codeReused" }, context.client);
      }
    } else {
      right = codeMatches(code, t.state.codeHash);
    }
    if (right) {
      clearFailures(context, user.id);
      t.state.steps.shift();
      t.state.enrolled = false;
      return moveOn(context, t);
    }
    failed(context, t);
    if (user.mfaMethod === "sms" || user.mfaMethod === "email") {
      // spec 000 §8: a bad one-time code sends a new one
      t.state.codeHash = sendCode(context, user, user.mfaMethod);
      throw new ApiError(401, MESSAGES.badCode, MESSAGES.badCode, stay(context, t));
    }
    throw new ApiError(401, MESSAGES.badTokenCode, MESSAGES.badTokenCode, stay(context, t));
  }

  // MfaEnrolmentValidateDevice
  const device = t.state.device;
  if (!device || input.device_id !== device.id) throw new ApiError(400, MESSAGES.verificationMissing);
  const { right, matchedStep } = checkDeviceCode(device, code, t.state.codeHash, clock.now());
  noteAuth(context, { method: device.method, failed: !right });
  if (!right) {
    failed(context, t);
    // spec 000 §4: a wrong code at device validation leads to the invalid-code page
    t.state.steps[0] = "MfaEnrolmentLinkDeviceInvalidOtp";
    t.state.codeHash = null;
    return moveOn(context, t);
  }
  db.update(users)
    .set({
      mfaMethod: device.method,
      mfaEnrolled: true,
      mfaTotpSecret: device.method === "token" ? (device.totpSecret ?? null) : null,
      mfaTotpLastStep: matchedStep,
    })
    .where(eq(users.id, t.user.id))
    .run();
  clearFailures(context, t.user.id);
  tellOwner(context, t.user.id, { kind: "twoStepChanged", method: device.method }, context.client);
  // spec 000 §4 step 4: after enrolling a device the user verifies once more
  t.state.steps[0] = "MfaRequired";
  t.state.enrolled = true;
  delete t.state.device;
  return moveOn(context, t, reloadUser(context, t.user.id));
}

function resendCode(body: unknown, context: HandlerContext): ApiResponse {
  const input = validate(TicketBody, body, "body");
  const t = openTicket(context, input.login_ticket, [
    "MfaRequired",
    "MfaEnrolmentValidateDevice",
    "MfaEnrolmentLinkDeviceInvalidOtp",
  ]);
  const step = currentStep(t.state);
  const method = step === "MfaRequired" ? t.user.mfaMethod : t.state.device?.method;
  if (step === "MfaRequired" && method === "token") throw new ApiError(400, MESSAGES.tokenMakesCodes);
  if (method === "sms" || method === "email") {
    t.state.resends = (t.state.resends ?? 0) + 1;
    if (t.state.resends > MAX_RESENDS) {
      context.db.delete(loginTickets).where(eq(loginTickets.id, t.rowId)).run();
      throw new ApiError(429, MESSAGES.tooManyCodes);
    }
  }
  if (step === "MfaEnrolmentLinkDeviceInvalidOtp") {
    // 'Request new code' restarts validation of the same device
    t.state.steps[0] = "MfaEnrolmentValidateDevice";
    return moveOn(context, t);
  }
  prepareStep(context, t.user, t.state);
  return json(stay(context, t));
}

function enrolDevice(body: unknown, context: HandlerContext): ApiResponse {
  const input = validate(DeviceBody, body, "body");
  const t = openTicket(context, input.login_ticket, ENROLMENT_STEPS);
  if (!allowedMethods(t.user).includes(input.method)) throw new ApiError(400, MESSAGES.methodNotAvailable);
  if (!canEnrol(t.user, input.method)) throw new ApiError(422, ENROLMENT_PROBLEM);
  t.state.device = {
    id: newToken().slice(0, 22),
    method: input.method,
    name: deviceName(input.method),
    ...(input.method === "token" ? { totpSecret: newTotpSecret() } : {}),
  };
  t.state.steps[0] = "MfaEnrolmentValidateDevice";
  return moveOn(context, t);
}

function memorable(body: unknown, context: HandlerContext): ApiResponse {
  const input = validate(MemorableBody, body, "body");
  const t = openTicket(context, input.login_ticket, ["MemorableCharactersRequired"]);
  if (input.answers.some((a) => [...a].length !== 1)) {
    throw new ApiError(400, "Invalid body: answers: Expected one character each", MESSAGES.argumentsIncorrect);
  }
  const positions = t.state.positions ?? [];
  const word = [...(t.user.memorableWord ?? "")];
  // spec 000 §5: without exactly three positions there is nothing the user can answer
  if (positions.length !== 3) throw new ApiError(422, MESSAGES.memorableFailed);
  const right = positions.every((p, i) => (word[p] ?? "").toLowerCase() === (input.answers[i] ?? "").toLowerCase());
  if (right) {
    clearFailures(context, t.user.id);
    t.state.steps.shift();
    return moveOn(context, t);
  }
  failed(context, t, MESSAGES.deactivated);
  // spec 000 §4: a retry with new positions
  prepareStep(context, t.user, t.state);
  throw new ApiError(401, MESSAGES.badMemorable, MESSAGES.badMemorable, stay(context, t));
}

function changePasswordStep(body: unknown, context: HandlerContext): ApiResponse {
  const input = validate(PasswordBody, body, "body");
  const t = openTicket(context, input.login_ticket, ["ForceChangePassword"]);
  const problem = passwordProblem(input.new_password, t.user);
  if (problem) throw new ApiError(400, problem);
  setPassword(context.db, t.user.id, input.new_password);
  tellOwner(context, t.user.id, { kind: "passwordChanged" }, context.client);
  t.state.steps.shift();
  return moveOn(context, t);
}

function siteTerms(body: unknown, context: HandlerContext): ApiResponse {
  const input = validate(TermsBody, body, "body");
  const t = openTicket(context, input.login_ticket, ["SiteTerms"]);
  const { db, clock } = context;
  if (!input.agree) {
    // spec 000 §4: Decline resets the login state
    db.delete(loginTickets).where(eq(loginTickets.id, t.rowId)).run();
    return noContent();
  }
  const now = clock.now().toISOString();
  db.insert(termsAgreements).values({ userId: t.user.id, termsText: input.terms_text, agreedAt: now }).run();
  db.update(users).set({ mustAgreeTerms: false, termsAgreedAt: now }).where(eq(users.id, t.user.id)).run();
  t.state.steps.shift();
  return moveOn(context, t);
}

function securityQuestionsStep(body: unknown, context: HandlerContext): ApiResponse {
  const input = validate(QuestionsBody, body, "body");
  const t = openTicket(context, input.login_ticket, ["SetSecurityQuestions"]);
  const problem = securityQuestionsProblem(input.questions, answerMinLength(platformVersion(context.env)));
  if (problem) throw new ApiError(400, problem);
  setSecurityQuestions(context.db, t.user.id, input.questions);
  tellOwner(context, t.user.id, { kind: "securityQuestionsChanged" }, context.client);
  t.state.steps.shift();
  return moveOn(context, t);
}

export const authRoutes: Route[] = [
  open("POST", "/auth/login", (request, context) => login(request.body, context)),
  open("POST", "/auth/password", (request, context) => changePasswordStep(request.body, context)),
  open("POST", "/auth/terms", (request, context) => siteTerms(request.body, context)),
  open("POST", "/auth/security_questions", (request, context) => securityQuestionsStep(request.body, context)),
  open("POST", "/auth/memorable", (request, context) => memorable(request.body, context)),
  open("POST", "/auth/tfa/validate", (request, context) => validateCode(request.body, context)),
  open("POST", "/auth/tfa/device", (request, context) => enrolDevice(request.body, context)),
  open("POST", "/auth/tfa/resend", (request, context) => resendCode(request.body, context)),
  open("POST", "/auth/tfa/methods", (request, context) => {
    const input = validate(TicketBody, request.body, "body");
    const t = openTicket(context, input.login_ticket, ENROLMENT_STEPS);
    return json({ methods: methodsView(t.user) });
  }),
  open("POST", "/auth/tfa/details", (request, context) => {
    const input = validate(TicketBody, request.body, "body");
    const t = openTicket(context, input.login_ticket, MFA_STEPS);
    return json(enrolmentDetails(t.user));
  }),
  // Return to login, Cancel, Decline: the sign-in part-way is forgotten (always 204)
  open("POST", "/auth/cancel", (request, context) => {
    const input = validate(TicketBody, request.body, "body");
    context.db
      .delete(loginTickets)
      .where(eq(loginTickets.ticketHash, tokenDigest(input.login_ticket)))
      .run();
    return noContent();
  }),
  signedIn("DELETE", "/resourceful/session", (_request, context) => {
    deleteSession(context.db, context.caller.session.id);
    return { ...noContent(), cookies: [CLEARED_COOKIE] };
  }),
];
