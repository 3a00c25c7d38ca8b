import type { PlatformLogger } from "./logger";
import { authDecided } from "./metrics";

// ASVS 4.0.3 V7.2.1 (docs/decisions/174): every authentication decision is one log line, `auth`,
// with the step, the outcome, the user's id when the platform knows whose account it was, the
// reason of a refusal and (from the logger) the request's id; never the password, code or answer.
// The dispatcher writes it for the routes below once the handler has answered, so that every exit
// of a handler (each refusal is a thrown ApiError) is logged the same way; the handlers only say
// whose account it was (noteAuthUser) and what the status cannot (a refusal answered 200).

/** The routes that decide an authentication, by `METHOD pattern`, and the step each decides. */
export const AUTH_STEPS: Readonly<Record<string, string>> = {
  "POST /auth/login": "password",
  "POST /auth/tfa/validate": "code",
  "POST /auth/tfa/resend": "resendCode",
  "POST /auth/tfa/device": "linkDevice",
  "POST /auth/memorable": "memorable",
  "POST /auth/password": "forcedPasswordChange",
  "POST /auth/terms": "terms",
  "POST /auth/security_questions": "setSecurityQuestions",
  "POST /auth/passkey/authentication/verify": "passkey",
  "POST /resourceful/forgotten_password": "resetRequest",
  "GET /resourceful/forgotten_password": "resetCode",
  "PUT /resourceful/forgotten_password": "reset",
  "POST /resourceful/forgot/username": "usernameReminder",
  "DELETE /resourceful/session": "signOut",
  "PUT /resourceful/session/password": "changePassword",
  "PUT /resourceful/session/mfa/method": "changeMfaMethod",
  "POST /resourceful/session/mfa/validate": "validateMfaDevice",
  "PUT /resourceful/session/security_questions": "changeSecurityQuestions",
  "POST /resourceful/session/passkey/registration/options": "addPasskeyOptions",
  "POST /resourceful/session/passkey/registration/verify": "addPasskey",
  "DELETE /resourceful/session/sessions": "endOtherSessions",
  "DELETE /resourceful/session/sessions/:id": "endSession",
  "DELETE /resourceful/session/passkey/:id": "removePasskey",
};

/** What a handler knows of the decision that its answer's status does not say. */
export type AuthNote = {
  /** Whose account it was (null: no account, e.g. an unknown username). */
  userId?: number | null;
  /** A refusal answered with a 2xx (a wrong code at device validation leads to the invalid-code step). */
  failed?: boolean;
  /** The secret's kind where the step has several (a code by sms, email or software token; a reset by code or answers). */
  method?: string | null;
  /** This failure locked the account (the platform's 5th consecutive wrong secret, decision 041). */
  lockedNow?: boolean;
  /** The refused code was a software token's code already used (a replay, decision 181), not a wrong one. */
  reused?: boolean;
};

/** Says whose account a decision is about (no-op outside a dispatched request). */
export function noteAuth(context: { auth?: AuthNote }, note: AuthNote): void {
  if (context.auth) Object.assign(context.auth, note);
}

export type AuthOutcome = "success" | "failure" | "locked" | "refused" | "error";

const LOCKED_MESSAGES = new Set(["Account has been disabled.", "Account deactivated"]);

/** The outcome of an answer: its status, unless the handler said it refused. */
export function authOutcome(status: number, apiMessage: string | null, note: AuthNote): AuthOutcome {
  if (status >= 500) return "error";
  // no authentication route redirects but one that needs a session, without one
  if (status >= 300 && status < 400) return "refused";
  if (status < 300) return note.failed ? "failure" : "success";
  if (status === 403 && apiMessage !== null && LOCKED_MESSAGES.has(apiMessage)) return "locked";
  if (status === 429 || status === 403) return "refused";
  return "failure";
}

/** The api_message of an error answer's body, if any. */
function apiMessageOf(body: unknown): string | null {
  if (typeof body !== "object" || body === null || !("api_message" in body)) return null;
  const message = (body as { api_message: unknown }).api_message;
  return typeof message === "string" ? message : null;
}

/** The `auth` line of one decision (info for a success, a warning otherwise), and its count in the metrics. */
export function logAuthDecision(
  log: PlatformLogger,
  step: string,
  answer: { status: number; body?: unknown },
  note: AuthNote,
): void {
  const reason = answer.status >= 400 ? apiMessageOf(answer.body) : null;
  const outcome = authOutcome(answer.status, reason, note);
  const fields = {
    outcome,
    step,
    userId: note.userId ?? null,
    status: answer.status,
    ...(note.method ? { method: note.method } : {}),
    ...(note.lockedNow ? { lockedNow: true } : {}),
    ...(note.reused ? { reused: true } : {}),
    ...(reason ? { reason } : note.failed ? { reason: "wrong code" } : {}),
  };
  if (outcome === "success") log.info(fields, "auth");
  else log.warn(fields, "auth");
  authDecided(step, outcome, note.lockedNow === true);
}
