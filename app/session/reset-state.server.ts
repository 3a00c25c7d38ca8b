import { z } from "zod";
import { sealedState } from "./sealed-state.server";

// The password reset between its steps (docs/decisions/042): a short-lived sealed cookie, never the
// password or the code.

/** The platform keeps a reset for 30 minutes (docs/decisions/042); the cookie no longer. */
const RESET_MAX_AGE_S = 30 * 60;

export const ResetStateSchema = z.object({
  reference: z.string().min(1),
  method: z.enum(["code", "questions"]),
  questions: z.array(z.string()),
  /** spec 000 §4: the code error count rises with each invalid code. */
  codeErrors: z.number().int().min(0),
});
export type ResetState = z.infer<typeof ResetStateSchema>;

const resetState = sealedState("__reset", { path: "/login", maxAgeSeconds: RESET_MAX_AGE_S }, ResetStateSchema);

export function readResetState(request: Request): Promise<ResetState | null> {
  return resetState.read(request);
}

export function commitResetState(state: ResetState): Promise<string> {
  return resetState.commit(state);
}

export function clearResetState(): Promise<string> {
  return resetState.clear();
}
