// spec 000 §4 "Forgotten password flow" and §5 "Forgotten username": the rules of the
// Help with logging in page. Pure: shared by the server and the browser; the schemas are in
// recovery-schemas.ts, which the browser loads only after the page (issue 16).

import { passwordPolicyKey } from "~/lib/security";

/**
 * spec 000 §5: 'a basic pattern; the top-level domain allows 2 to 5 letters'. One @, no spaces,
 * a dot-separated domain whose last label is 2 to 5 letters.
 */
export const EMAIL_PATTERN = /^[A-Za-z0-9._%+'-]+@(?:[A-Za-z0-9-]+\.)+[A-Za-z]{2,5}$/;

export type ResetMethod = "code" | "questions";

/** spec 000 §4: enterReset when a code was sent, secQNewPass when questions are available. */
export function resetStepOf(method: ResetMethod): "enterReset" | "secQNewPass" {
  return method === "questions" ? "secQNewPass" : "enterReset";
}

export type ResetRefusal =
  | { kind: "code" }
  | { kind: "answers" }
  | { kind: "disabled" }
  | { kind: "paused" }
  | { kind: "policy"; message: string }
  | { kind: "other" };

/** The platform's refusal once a username's wrong codes or answers reach its limit (docs/decisions/163). */
export const RECOVERY_PAUSED_STATUS = 429;

/** Whether a platform refusal is the username's paused password reset. */
export function isRecoveryPaused(status: number): boolean {
  return status === RECOVERY_PAUSED_STATUS;
}

/**
 * spec 000 §8: a 400 'Password reset code incorrect or invalid for user' raises the code error
 * count; a 400 'One or more of the arguments are missing or incorrect.' is the wrong-answers error;
 * a policy message belongs beside the new password; a 429 is the username's paused reset (decision
 * 163); anything else goes to the generic handler.
 */
export function resetRefusalOf(
  status: number,
  apiMessage: string | null,
  userMessage: string | null = null,
): ResetRefusal {
  if (status === 403 && apiMessage === "Account has been disabled.") return { kind: "disabled" };
  if (isRecoveryPaused(status)) return { kind: "paused" };
  if (status !== 400) return { kind: "other" };
  if (apiMessage === "Password reset code incorrect or invalid for user") return { kind: "code" };
  if (apiMessage === "One or more of the arguments are missing or incorrect.") return { kind: "answers" };
  const policy = passwordPolicyKey(apiMessage) ?? passwordPolicyKey(userMessage);
  return policy ? { kind: "policy", message: policy } : { kind: "other" };
}

/** spec 000 §8: 'Reset code incorrect' is shown when the error count is above 0. */
export function showResetCodeError(errorCount: number): boolean {
  return errorCount > 0;
}
