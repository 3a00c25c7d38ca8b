import { verifySecret } from "../lib/password";

// The reference platform's password policy (docs/decisions/041): the spec leaves it to the platform.
export const PASSWORD_MESSAGES = {
  tooShort: "The password must be at least 8 characters long.",
  tooLong: "The password must be at most 128 characters long.",
  letterAndDigit: "The password must contain at least one letter and one number.",
  containsUsername: "The password must not contain your username.",
  sameAsCurrent: "The new password must be different from your current password.",
} as const;

export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 128;

export const PASSWORD_GUIDANCE =
  "Use at least 8 characters, with at least one letter and one number. Do not use your username or your current password.";

/** The first rule a new password breaks, or null when it is acceptable. */
export function passwordProblem(password: string, user: { username: string; passwordHash: string }): string | null {
  const length = [...password].length;
  if (length < PASSWORD_MIN_LENGTH) return PASSWORD_MESSAGES.tooShort;
  if (length > PASSWORD_MAX_LENGTH) return PASSWORD_MESSAGES.tooLong;
  if (!/\p{L}/u.test(password) || !/\p{Nd}/u.test(password)) return PASSWORD_MESSAGES.letterAndDigit;
  if (password.toLowerCase().includes(user.username.trim().toLowerCase())) return PASSWORD_MESSAGES.containsUsername;
  if (verifySecret(password, user.passwordHash)) return PASSWORD_MESSAGES.sameAsCurrent;
  return null;
}
