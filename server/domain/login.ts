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
 * changes the password, then agrees the site terms, then sets security questions). A password on
 * the common and breached list (`passwordCommon`, decision 180) is changed where the firm's forced
 * change would be: after the second factor.
 */
export function pendingLoginSteps(user: UserRow, passwordCommon = false): Exclude<LoginStatus, "LoginSuccess">[] {
  const steps: Exclude<LoginStatus, "LoginSuccess">[] = [];
  if (user.loginMethod === "MFA") steps.push(user.mfaEnrolled ? "MfaRequired" : "MfaEnrolmentLinkDevice");
  // A memorable-word user without a (long enough) word still gets the step, with fewer than three
  // positions: the portal's 'Could not retrieve...' case (spec 000 §5); never a way round it.
  if (user.loginMethod === "MemorableWord") steps.push("MemorableCharactersRequired");
  if (user.forceChangePassword || passwordCommon) steps.push("ForceChangePassword");
  if (user.mustAgreeTerms) steps.push("SiteTerms");
  if (user.mustSetSecurityQuestions) steps.push("SetSecurityQuestions");
  return steps;
}

/** The steps that prove who the user is (second factors); the others are what the firm asks. */
export const IDENTITY_STEPS: ReadonlySet<LoginStatus> = new Set([
  "MfaRequired",
  "MfaEnrolmentLinkDevice",
  "MfaEnrolmentValidateDevice",
  "MfaEnrolmentLinkDeviceInvalidOtp",
  "MemorableCharactersRequired",
]);

/**
 * Three distinct zero-based character positions of the memorable word, in order (fewer when the
 * word is shorter). With `avoid`, a retry gets another set than the last where the word allows.
 */
export function memorablePositions(wordLength: number, randomInt: (max: number) => number, avoid?: number[]): number[] {
  const pick = () => {
    const positions = new Set<number>();
    while (positions.size < Math.min(3, wordLength)) positions.add(randomInt(wordLength));
    return [...positions].sort((a, b) => a - b);
  };
  let positions = pick();
  for (let tries = 0; avoid && wordLength > 3 && tries < 20 && positions.join() === avoid.join(); tries++)
    positions = pick();
  return positions;
}
