import { dictionary } from "@zxcvbn-ts/language-common";
import { verifySecret } from "../lib/password";

// The reference platform's password policy (docs/decisions/041, 171): OWASP ASVS 4.0.3 V2.1 — at
// least 12 characters, at most 128, no composition rule, and no password that is common or known
// from breaches (zxcvbn-ts's list of about 49,000, shipped in @zxcvbn-ts/language-common: read
// from the package, never asked of a service). Only new passwords are checked: one set under an
// older rule keeps signing in until it is changed.
export const PASSWORD_MESSAGES = {
  tooShort: "The password must be at least 12 characters long.",
  tooLong: "The password must be at most 128 characters long.",
  common: "This password is too common or has appeared in a data breach. Choose a different one.",
  containsUsername: "The password must not contain your username.",
  sameAsCurrent: "The new password must be different from your current password.",
} as const;

export const PASSWORD_MIN_LENGTH = 12;
export const PASSWORD_MAX_LENGTH = 128;

export const PASSWORD_GUIDANCE =
  "Use at least 12 characters: a few unrelated words make a strong password that is easy to remember. Do not use a common password, your username or your current password.";

/** The list, lower-cased, read once on first use. */
let commonPasswords: ReadonlySet<string> | null = null;
function commonPasswordList(): ReadonlySet<string> {
  commonPasswords ??= new Set(dictionary["passwords-common"].map((p) => p.toLowerCase()));
  return commonPasswords;
}

/**
 * Whether a password is on the list, ignoring case, or is a listed one dressed up: with digits or
 * punctuation only before or after it ("Password2024!", "!!qwertyuiop123"), or the same listed
 * password twice over ("letmeinletmein").
 */
export function isCommonPassword(password: string): boolean {
  const list = commonPasswordList();
  const lower = password.toLowerCase();
  if (list.has(lower)) return true;
  const core = lower.replace(/^[\p{Nd}\p{P}\p{S}\s]+|[\p{Nd}\p{P}\p{S}\s]+$/gu, "");
  if (core.length >= 4 && list.has(core)) return true;
  const half = core.length / 2;
  return Number.isInteger(half) && half >= 4 && core.slice(0, half) === core.slice(half) && list.has(core.slice(half));
}

/**
 * A password's length as the minimum counts it (ASVS 4.0.3 V2.1.1, "after multiple spaces are
 * combined"): Unicode characters, with each run of spaces (any white space) counted as one, so
 * "abc" and nine spaces is four characters, not twelve. The portal's strength meter counts alike
 * (`app/lib/password-strength.ts`, held equal by tests/contract/password-length.test.ts).
 */
export function passwordLength(password: string): number {
  return [...password.replace(/\s{2,}/gu, " ")].length;
}

/** The first rule a new password breaks, or null when it is acceptable. */
export function passwordProblem(password: string, user: { username: string; passwordHash: string }): string | null {
  if (passwordLength(password) < PASSWORD_MIN_LENGTH) return PASSWORD_MESSAGES.tooShort;
  // the maximum counts what is stored: every character as typed
  if ([...password].length > PASSWORD_MAX_LENGTH) return PASSWORD_MESSAGES.tooLong;
  if (isCommonPassword(password)) return PASSWORD_MESSAGES.common;
  if (password.toLowerCase().includes(user.username.trim().toLowerCase())) return PASSWORD_MESSAGES.containsUsername;
  if (verifySecret(password, user.passwordHash)) return PASSWORD_MESSAGES.sameAsCurrent;
  return null;
}
