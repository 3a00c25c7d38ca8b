import type { UserRow } from "../sessions";

/** spec 000 §4 login status values. */
export type LoginStatus =
  | "LoginSuccess"
  | "ForceChangePassword"
  | "SiteTerms"
  | "SetSecurityQuestions"
  | "MfaRequired"
  | "MfaEnrolmentLinkDevice"
  | "MfaEnrolmentValidateDevice"
  | "MfaEnrolmentLinkDeviceInvalidOtp"
  | "MemorableCharactersRequired";

/**
 * The steps a user still has to take after a right password, in order: prove who they are first
 * (second factor or memorable word), then what the firm asks of them (design: demo.newuser
 * changes the password, then agrees the site terms, then sets security questions).
 */
export function pendingLoginSteps(user: UserRow): Exclude<LoginStatus, "LoginSuccess">[] {
  const steps: Exclude<LoginStatus, "LoginSuccess">[] = [];
  if (user.loginMethod === "MFA") steps.push(user.mfaEnrolled ? "MfaRequired" : "MfaEnrolmentLinkDevice");
  if (user.loginMethod === "MemorableWord" && user.memorableWord) steps.push("MemorableCharactersRequired");
  if (user.forceChangePassword) steps.push("ForceChangePassword");
  if (user.mustAgreeTerms) steps.push("SiteTerms");
  if (user.mustSetSecurityQuestions) steps.push("SetSecurityQuestions");
  return steps;
}

/** Three distinct zero-based character positions of the memorable word, in order. */
export function memorablePositions(wordLength: number, randomInt: (max: number) => number): number[] {
  const positions = new Set<number>();
  while (positions.size < Math.min(3, wordLength)) positions.add(randomInt(wordLength));
  return [...positions].sort((a, b) => a - b);
}
