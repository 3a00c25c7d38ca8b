// Passkeys (issue 15, docs/decisions/101): the web's form of spec 000's biometric login. Pure
// rules shared by the login page and the biometric permission page.

/** docs/platform-api.md "Passkeys": a name is 1–64 characters after trimming. */
export const PASSKEY_NAME_MAX = 64;

/** The platform's refusals of a ceremony (docs/platform-api.md "Passkeys"). */
export const PASSKEY_API_MESSAGES = {
  notRecognised: "Passkey not recognised",
  expired: "Passkey sign-in expired, please try again",
  registrationExpired: "Passkey registration expired, please try again",
  notVerified: "Passkey could not be verified",
  alreadyRegistered: "This passkey is already registered",
} as const;

/** A passkey sign-in the platform refused: the `auth` key to show, or null for the caller's fallback. */
export function signInRefusalKey(status: number, apiMessage: string | null): string | null {
  if (status === 400 && apiMessage === PASSKEY_API_MESSAGES.expired) return "login.passkey.expired";
  if (status === 401 && apiMessage === PASSKEY_API_MESSAGES.notRecognised) return "login.passkey.notRecognised";
  if (status === 400 || status === 401) return "login.passkey.failed";
  return null;
}

/** A registration the platform refused: the `security` key to show, or null (a failure of the platform). */
export function registrationRefusalKey(status: number, apiMessage: string | null): string | null {
  if (status === 409 && apiMessage === PASSKEY_API_MESSAGES.alreadyRegistered)
    return "biometric.errors.alreadyRegistered";
  if (status === 409) return "biometric.errors.tooMany";
  if (status === 400 && apiMessage === PASSKEY_API_MESSAGES.registrationExpired) return "biometric.errors.expired";
  if (status === 400) return "biometric.errors.notVerified";
  return null;
}

/** What went wrong in the browser's own part of a ceremony (navigator.credentials). */
export type CeremonyProblem = "cancelled" | "alreadyRegistered" | "unsupported" | "failed";

/**
 * The browser's error, as SimpleWebAuthn's WebAuthnError (a `code`) or the DOMException it
 * wraps (a `name`). The user closing the prompt, its timeout and an aborted request all arrive as
 * NotAllowedError or AbortError: 'cancelled'.
 */
export function ceremonyProblemOf(error: unknown): CeremonyProblem {
  const { code, name } = (typeof error === "object" && error !== null ? error : {}) as {
    code?: unknown;
    name?: unknown;
  };
  if (code === "ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED" || name === "InvalidStateError") return "alreadyRegistered";
  if (code === "ERROR_CEREMONY_ABORTED" || name === "AbortError" || name === "NotAllowedError") return "cancelled";
  if (
    code === "ERROR_AUTHENTICATOR_MISSING_DISCOVERABLE_CREDENTIAL_SUPPORT" ||
    code === "ERROR_AUTHENTICATOR_MISSING_USER_VERIFICATION_SUPPORT" ||
    code === "ERROR_AUTHENTICATOR_NO_SUPPORTED_PUBKEYCREDPARAMS_ALG" ||
    name === "NotSupportedError"
  ) {
    return "unsupported";
  }
  return "failed";
}

const BROWSERS: Array<[RegExp, string]> = [
  [/\bEdg(e|A|iOS)?\//, "Edge"],
  [/\b(OPR|Opera)\//, "Opera"],
  [/\bSamsungBrowser\//, "Samsung Internet"],
  [/\b(Firefox|FxiOS)\//, "Firefox"],
  [/\b(Headless)?(Chrome|Chromium|CriOS)\//, "Chrome"],
  [/\bSafari\//, "Safari"],
];

const SYSTEMS: Array<[RegExp, string]> = [
  [/\biPhone\b/, "iPhone"],
  [/\biPad\b/, "iPad"],
  [/\bAndroid\b/, "Android"],
  [/\bCrOS\b/, "ChromeOS"],
  [/\bWindows\b/, "Windows"],
  [/\bMac OS X\b|\bMacintosh\b/, "Mac"],
  [/\bLinux\b/, "Linux"],
];

/**
 * A passkey's first name, from the browser that made it ('Chrome on Mac'), so that the list tells
 * devices apart; the user can rename it. Unknown browsers give 'Passkey'.
 */
export function passkeyNameFor(userAgent: string | null | undefined): string {
  const ua = userAgent ?? "";
  const browser = BROWSERS.find(([pattern]) => pattern.test(ua))?.[1];
  const system = SYSTEMS.find(([pattern]) => pattern.test(ua))?.[1];
  if (browser && system) return `${browser} on ${system}`;
  return browser ?? system ?? "Passkey";
}

/**
 * The passkeys this browser made, as its device cookie lists them, that the user still has: the
 * biometric permission is granted on this device while one is left.
 */
export function devicePasskeys(deviceIds: readonly number[], passkeyIds: readonly number[]): number[] {
  const mine = new Set(passkeyIds);
  return deviceIds.filter((id, i) => mine.has(id) && deviceIds.indexOf(id) === i);
}

/** The ids a device cookie holds: positive integers, at most 20 (the platform's limit per user). */
export function parseDeviceIds(value: unknown): number[] {
  if (!Array.isArray(value)) return [];
  return value.filter((id): id is number => Number.isInteger(id) && id > 0).slice(-20);
}
