import { z } from "zod";
import { recordFailure } from "../domain/accounts";
import { noteAuth } from "../lib/auth-log";
import { verifySecret } from "../lib/password";
import { passwordHashOf } from "../sessions";
import { ApiError, MESSAGES } from "./http";
import type { SignedInContext } from "./router";

// ASVS 4.0.3 V3.3.4 and V3.7.1 (docs/decisions/179): the current password, asked again before a
// change to how the account is reached or who is signed in to it. Changing the password and the
// two-step method always asked for it (decisions 051, 052); signing out other browsers, adding or
// removing a passkey and changing the security questions ask for it the same way: in the call's
// own body (`current_password`), a wrong one counted toward the lockout as a wrong sign-in is.

/** The field each such call's body carries. */
const CurrentPassword = z.object({ current_password: z.string().max(1024).optional() });

/**
 * A wrong secret while signed in: counted; the failure that locks the account answers 403 (the
 * lock ends every session of the user, this one too), any other answers 400 with `message`.
 */
export function failedSecret(context: SignedInContext, message: string): never {
  if (recordFailure(context, context.caller.user.id)) {
    noteAuth(context, { lockedNow: true });
    throw new ApiError(403, MESSAGES.disabled);
  }
  throw new ApiError(400, message);
}

/** The caller's current password, or the call is refused: 400 when missing or wrong, 403 when it locks. */
export function confirmCurrentPassword(context: SignedInContext, body: unknown): void {
  const parsed = CurrentPassword.safeParse(body ?? {});
  const password = parsed.success ? parsed.data.current_password : undefined;
  if (!password) throw new ApiError(400, MESSAGES.passwordRequired);
  if (!verifySecret(password, passwordHashOf(context.db, context.caller.user.id)))
    failedSecret(context, MESSAGES.currentPasswordIncorrect);
}
