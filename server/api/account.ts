import { and, eq } from "drizzle-orm";
import { z } from "zod";
import {
  clearFailures,
  endUserAccess,
  securityQuestionsOf,
  send,
  setPassword,
  setSecurityQuestions,
} from "../domain/accounts";
import {
  allowedMethods,
  canEnrol,
  cleanCode,
  CODE_MINUTES,
  checkDeviceCode,
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
import { passwordProblem } from "../domain/password-policy";
import {
  answerMinLength,
  DEFAULT_SECURITY_QUESTIONS,
  SecurityQuestionsInput,
  securityQuestionsProblem,
} from "../domain/security-questions";
import { pendingMfaDevices, users } from "../db/schema";
import { platformVersion } from "../env";
import { verifySecret } from "../lib/password";
import { passwordHashOf } from "../sessions";
import { newToken, tokenDigest } from "../lib/tokens";
import { newTotpSecret, otpauthUri } from "../lib/totp";
import { requireClientUser } from "./access";
import { confirmCurrentPassword, failedSecret } from "./reauthentication";
import { ApiError, forbidden, MESSAGES, validate } from "./http";
import { json, type Route, type SignedInContext, signedIn } from "./router";

// Account security, clients only (spec 002 §2 change password, security questions; spec 000 §4
// additional verification flow). docs/decisions/043.

const PasswordBody = z.object({ current_password: z.string().max(1024), new_password: z.string().max(1024) });
const MethodBody = z.object({ mfaMethod: z.string().max(20).optional(), password: z.string().max(1024).optional() });
const ValidateBody = z.object({
  mfaMethod: z.string().max(20).optional(),
  mfaCode: z.string().max(20).optional(),
  deviceId: z.string().max(200).optional(),
});
const ResendBody = z.object({ deviceId: z.string().min(1).max(200) });

type Pending = typeof pendingMfaDevices.$inferSelect;

/** A failure of a secret while signed in; the one that locks the account ends this session too. */
const failed = failedSecret;

function requireMfaUser(context: SignedInContext) {
  requireClientUser(context.caller);
  if (context.caller.user.loginMethod !== "MFA") throw forbidden(MESSAGES.mfaNotEnabled);
}

function pendingView(context: SignedInContext, device: Pending) {
  const user = context.caller.user;
  return {
    status: "validate",
    device: {
      id: device.deviceId,
      name: device.name,
      method: device.method,
      destination: maskedDestination(user, device.method),
    },
    ...(device.method === "token" && device.totpSecret
      ? { token_secret: device.totpSecret, otpauth_uri: otpauthUri(device.totpSecret, user.username, "Client Online") }
      : {}),
  };
}

function sendDeviceCode(context: SignedInContext, method: MfaMethod): string | null {
  if (method === "token") return null;
  const user = context.caller.user;
  const code = newCode();
  send(context.db, context.clock, {
    to: destinationOf(user, method) ?? user.username,
    username: user.username,
    ...codeMessage(method, code),
  });
  return tokenDigest(code);
}

function pendingDevice(context: SignedInContext, deviceId: string): Pending | null {
  const device = context.db
    .select()
    .from(pendingMfaDevices)
    .where(and(eq(pendingMfaDevices.deviceId, deviceId), eq(pendingMfaDevices.userId, context.caller.user.id)))
    .get();
  if (!device || context.clock.now().getTime() > new Date(device.expiresAt).getTime()) return null;
  return device;
}

function changeMethod(context: SignedInContext, body: unknown) {
  requireMfaUser(context);
  const input = validate(MethodBody, body, "body");
  const { db, clock, caller } = context;
  const user = caller.user;
  if (!input.mfaMethod) throw new ApiError(400, MESSAGES.methodRequired);
  const method = MFA_METHODS.find((m) => m === input.mfaMethod);
  if (!method || !allowedMethods(user).includes(method)) throw new ApiError(400, MESSAGES.methodNotAvailable);
  if (user.mfaEnrolled && user.mfaMethod === method) throw new ApiError(400, MESSAGES.sameMethod);
  if (!canEnrol(user, method)) throw new ApiError(422, ENROLMENT_PROBLEM);
  // spec 000 §4: a password is required when the chosen method differs from the current one
  if (!input.password) throw new ApiError(400, MESSAGES.passwordRequired);
  if (!verifySecret(input.password, passwordHashOf(db, user.id))) failed(context, MESSAGES.passwordIncorrect);
  db.delete(pendingMfaDevices).where(eq(pendingMfaDevices.userId, user.id)).run();
  const now = clock.now();
  const device = db
    .insert(pendingMfaDevices)
    .values({
      deviceId: newToken().slice(0, 22),
      userId: user.id,
      method,
      name: deviceName(method),
      totpSecret: method === "token" ? newTotpSecret() : null,
      codeHash: sendDeviceCode(context, method),
      createdAt: now.toISOString(),
      expiresAt: new Date(now.getTime() + CODE_MINUTES * 60_000).toISOString(),
    })
    .returning()
    .get();
  return json(pendingView(context, device));
}

function validateDevice(context: SignedInContext, body: unknown) {
  requireMfaUser(context);
  const input = validate(ValidateBody, body, "body");
  const { db, clock, caller } = context;
  // spec 000 §5: method, code and device id are all needed
  if (!input.mfaMethod || !input.mfaCode || !input.deviceId) throw new ApiError(400, MESSAGES.verificationMissing);
  const device = pendingDevice(context, input.deviceId);
  if (!device || device.method !== input.mfaMethod) throw new ApiError(400, MESSAGES.verificationMissing);
  const code = cleanCode(input.mfaCode);
  const { right, matchedStep } = checkDeviceCode(device, code, device.codeHash, clock.now());
  if (!right) {
    // the code is void: the user asks for a new one ('Request new code')
    db.update(pendingMfaDevices).set({ codeHash: null }).where(eq(pendingMfaDevices.id, device.id)).run();
    failed(context, MESSAGES.codeInvalid);
  }
  db.update(users)
    .set({
      mfaMethod: device.method,
      mfaEnrolled: true,
      mfaTotpSecret: device.totpSecret,
      mfaTotpLastStep: matchedStep,
    })
    .where(eq(users.id, caller.user.id))
    .run();
  db.delete(pendingMfaDevices).where(eq(pendingMfaDevices.userId, caller.user.id)).run();
  clearFailures(context, caller.user.id);
  tellOwner(context, caller.user.id, { kind: "twoStepChanged", method: device.method }, context.client);
  return json({ status: "changed", mfaMethod: device.method });
}

export const accountRoutes: Route[] = [
  // spec 002 §7 change password
  signedIn("PUT", "/resourceful/session/password", (request, context) => {
    requireClientUser(context.caller);
    const input = validate(PasswordBody, request.body, "body");
    const user = context.caller.user;
    const passwordHash = passwordHashOf(context.db, user.id);
    if (!verifySecret(input.current_password, passwordHash)) failed(context, MESSAGES.currentPasswordIncorrect);
    const problem = passwordProblem(input.new_password, { username: user.username, passwordHash });
    if (problem) throw new ApiError(400, problem);
    setPassword(context.db, user.id, input.new_password);
    clearFailures(context, user.id);
    // the other sessions end; this one carries on
    endUserAccess(context.db, user.id, context.caller.session.id);
    tellOwner(context, user.id, { kind: "passwordChanged" }, context.client);
    return json({ password_changed: true });
  }),

  // spec 002 §2 security questions
  signedIn("GET", "/resourceful/session/security_questions", (_request, context) => {
    requireClientUser(context.caller);
    return json({
      questions: securityQuestionsOf(context.db, context.caller.user.id).map((q) => ({
        position: q.position,
        question: q.question,
      })),
      default_questions: [...DEFAULT_SECURITY_QUESTIONS],
      answer_min_length: answerMinLength(platformVersion(context.env)),
    });
  }),

  signedIn("PUT", "/resourceful/session/security_questions", (request, context) => {
    requireClientUser(context.caller);
    // decision 179: the current password first, as a change of password asks it
    confirmCurrentPassword(context, request.body);
    const input = validate(SecurityQuestionsInput, request.body, "body");
    const problem = securityQuestionsProblem(input.questions, answerMinLength(platformVersion(context.env)));
    if (problem) throw new ApiError(400, problem);
    setSecurityQuestions(context.db, context.caller.user.id, input.questions);
    tellOwner(context, context.caller.user.id, { kind: "securityQuestionsChanged" }, context.client);
    const saved = securityQuestionsOf(context.db, context.caller.user.id);
    return json({ questions: saved.map((q) => ({ position: q.position, question: q.question })) });
  }),

  // spec 000 §4 additional verification flow
  signedIn("GET", "/resourceful/session/mfa", (_request, context) => {
    requireClientUser(context.caller);
    return json(enrolmentDetails(context.caller.user));
  }),

  signedIn("GET", "/resourceful/session/mfa/methods", (_request, context) => {
    requireClientUser(context.caller);
    return json({ methods: context.caller.user.loginMethod === "MFA" ? methodsView(context.caller.user) : [] });
  }),

  signedIn("PUT", "/resourceful/session/mfa/method", (request, context) => changeMethod(context, request.body)),
  signedIn("POST", "/resourceful/session/mfa/validate", (request, context) => validateDevice(context, request.body)),

  signedIn("POST", "/resourceful/session/mfa/resend", (request, context) => {
    requireMfaUser(context);
    const input = validate(ResendBody, request.body, "body");
    const device = pendingDevice(context, input.deviceId);
    if (!device) throw new ApiError(400, MESSAGES.verificationMissing);
    const codeHash = sendDeviceCode(context, device.method);
    context.db.update(pendingMfaDevices).set({ codeHash }).where(eq(pendingMfaDevices.id, device.id)).run();
    return json(pendingView(context, { ...device, codeHash }));
  }),
];
