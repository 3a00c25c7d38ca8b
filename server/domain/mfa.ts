import { randomInt, timingSafeEqual } from "node:crypto";
import type { CallerUser } from "../sessions";
import { tokenDigest } from "../lib/tokens";
import { matchTokenCode } from "../lib/totp";

// spec 000 §3: MFA methods sms (text message), email and token (software token). Listed, and
// offered, strongest first (ASVS 4.0.3 V2.7.1, decision 178): the authenticator app, then email,
// then the text message.
export const MFA_METHODS = ["token", "email", "sms"] as const;
export type MfaMethod = (typeof MFA_METHODS)[number];

export const ENROLMENT_PROBLEM =
  "There is a problem with your registered phone number or email address. Please contact your adviser for assistance.";

export const CODE_MINUTES = 10;

/** The methods the user may use: the user's own list, or every method. */
export function allowedMethods(user: CallerUser): MfaMethod[] {
  if (user.mfaMethodsAllowed === null) return [...MFA_METHODS];
  const listed = user.mfaMethodsAllowed.split(",").map((m) => m.trim());
  return MFA_METHODS.filter((m) => listed.includes(m));
}

export function maskMobile(mobile: string | null): string | null {
  if (!mobile) return null;
  const digits = mobile.replace(/[^\d]/g, "");
  const kept = digits.slice(-4);
  return `${mobile.trim().startsWith("+") ? "+" : ""}${"*".repeat(Math.max(0, digits.length - 4))}${kept}`;
}

export function maskEmail(email: string | null): string | null {
  if (!email) return null;
  const at = email.lastIndexOf("@");
  if (at < 1) return "***";
  return `${email.charAt(0)}***${email.slice(at)}`;
}

const MOBILE = /^\+?[\d ]{7,20}$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Where a code for the method goes, or null when the user has no usable one on record. */
export function destinationOf(user: CallerUser, method: MfaMethod): string | null {
  if (method === "sms") return user.mfaMobile && MOBILE.test(user.mfaMobile) ? user.mfaMobile : null;
  if (method === "email") return user.mfaEmail && EMAIL.test(user.mfaEmail) ? user.mfaEmail : null;
  return null;
}

export function maskedDestination(user: CallerUser, method: MfaMethod): string | null {
  if (method === "sms") return maskMobile(user.mfaMobile);
  if (method === "email") return maskEmail(user.mfaEmail);
  return null;
}

/** The method can be enrolled: a token always, sms and email need a number or address on record. */
export function canEnrol(user: CallerUser, method: MfaMethod): boolean {
  return method === "token" || destinationOf(user, method) !== null;
}

export function methodsView(user: CallerUser) {
  return allowedMethods(user).map((method) => ({ method, destination: maskedDestination(user, method) }));
}

/** spec 000 §3 enrolment details. */
export function enrolmentDetails(user: CallerUser) {
  return {
    mfaMethod: user.mfaEnrolled ? user.mfaMethod : null,
    mobile: maskMobile(user.mfaMobile),
    email: maskEmail(user.mfaEmail),
    softwareToken: user.mfaEnrolled && user.mfaMethod === "token",
  };
}

/** spec 000 §4: choosing sms means the device is named 'device'; otherwise it is named 'email'. */
export const deviceName = (method: MfaMethod) => (method === "sms" ? "device" : "email");

export function newCode(): string {
  return String(randomInt(0, 1_000_000)).padStart(6, "0");
}

/** The code as the user typed it (spaces allowed), if it is six digits. */
export function cleanCode(code: string): string | null {
  const clean = code.replace(/\s+/g, "");
  return /^\d{6}$/.test(clean) ? clean : null;
}

export function codeMatches(code: string, hash: string | null | undefined): boolean {
  if (!hash) return false;
  return timingSafeEqual(Buffer.from(tokenDigest(code)), Buffer.from(hash));
}

/**
 * spec 000 §4, §5: whether a code proves the device being enrolled (at sign-in or on the account
 * page): a software token's code from its secret, any other method's code against the one sent.
 * A token's matched time step is kept as the user's last one, so the code cannot be used again.
 */
export function checkDeviceCode(
  device: { method: MfaMethod; totpSecret?: string | null },
  code: string | null,
  sentCodeHash: string | null | undefined,
  now: Date,
): { right: boolean; matchedStep: number | null } {
  if (!code) return { right: false, matchedStep: null };
  if (device.method !== "token") return { right: codeMatches(code, sentCodeHash), matchedStep: null };
  const matchedStep = matchTokenCode(device.totpSecret, code, now.getTime());
  return { right: matchedStep !== null, matchedStep };
}

export function codeMessage(method: "sms" | "email", code: string) {
  return {
    channel: method,
    subject: method === "email" ? "Your Client Online security code" : null,
    body: `Your Client Online security code is ${code}. It expires in ${CODE_MINUTES} minutes.`,
    code,
  };
}
