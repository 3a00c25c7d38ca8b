import type { Failure } from "~/lib/error-catalogue";
import { type LoginStep, type SignInRole } from "~/lib/sign-in-steps";
import { parseStepAnswer } from "~/lib/sign-in-step-answers.server";
import { platformTokenFrom } from "./auth.server";
import { createPlanningClient, PlanningError } from "./client.server";

// docs/platform-api.md "Sign-in steps, recovery and account security": auth/login and the step
// calls, each taking the login ticket (never the password again) and answering a step.

export type StepOutcome =
  /** The last step is done: the platform session (XPLANID). */
  | { kind: "success"; role: SignInRole; token: string }
  /** The next step (or the same one again), with the latest ticket. */
  | { kind: "step"; role: SignInRole; ticket: string; step: LoginStep }
  /** 204: declined or cancelled; the ticket is dead. */
  | { kind: "ended" }
  /**
   * A refusal that carries the step again (wrong code, wrong memorable characters): the same
   * ticket, new step data, and the message.
   */
  | { kind: "retry"; status: number; apiMessage: string | null; role: SignInRole; ticket: string; step: LoginStep }
  /** Any other refusal, or no answer (status 0). */
  | { kind: "refused"; status: number; apiMessage: string | null; failure: Failure };

/** One sign-in call. Step refusals carry the step data in their body (decision 040). */
export async function signInCall(path: string, body: Record<string, unknown>): Promise<StepOutcome> {
  let response: Response;
  try {
    response = await createPlanningClient().send("POST", path, { body, retry: false });
  } catch (error) {
    if (!(error instanceof PlanningError)) throw error;
    const progress = parseStepAnswer(error.body);
    if (progress?.kind === "step") {
      const { role, ticket, step } = progress;
      return { kind: "retry", status: error.status, apiMessage: error.apiMessage, role, ticket, step };
    }
    return { kind: "refused", status: error.status, apiMessage: error.apiMessage, failure: error.failure };
  }
  if (response.status === 204) return { kind: "ended" };
  const progress = parseStepAnswer(await response.json().catch(() => null));
  if (!progress)
    return { kind: "refused", status: 502, apiMessage: null, failure: new PlanningError(502, null).failure };
  if (progress.kind === "step") return progress;
  const token = platformTokenFrom(response.headers);
  if (!token) return { kind: "refused", status: 502, apiMessage: null, failure: new PlanningError(502, null).failure };
  return { kind: "success", role: progress.role, token };
}

/** POST auth/login (spec 000 §7): the password, once; then a ticket for any step. */
export function signIn(input: { username: string; password: string; userType: "client" | "adviser" }) {
  return signInCall("auth/login", {
    username: input.username.trim(),
    password: input.password,
    user_type: input.userType,
  });
}

/** Return to login, Cancel: the platform forgets the ticket (always 204). Failures are only logged by the caller. */
export function cancelSignIn(ticket: string) {
  return signInCall("auth/cancel", { login_ticket: ticket });
}

/**
 * docs/platform-api.md "Passkeys": the browser's answer to the sign-in options. Answers as a
 * password would (the session, or a step that is not a second factor); `user_type` is the tab's.
 */
export function signInWithPasskey(input: { response: unknown; userType: "client" | "adviser" }) {
  return signInCall("auth/passkey/authentication/verify", { response: input.response, user_type: input.userType });
}
