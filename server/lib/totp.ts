import { randomBytes } from "node:crypto";
import { decodeBase32IgnorePadding, encodeBase32UpperCaseNoPadding } from "@oslojs/encoding";
import { createTOTPKeyURI, generateHOTP, verifyHOTP } from "@oslojs/otp";
import { usingBytes } from "./wipe";

// The software-token MFA method (spec 000 §3 "token") on @oslojs/otp (RFC 4226 HOTP, RFC 6238
// TOTP) and @oslojs/encoding (base32). Authenticator apps use SHA-1, 30-second steps and 6 digits.
// What stays here is the project's own rule: the time step comes from the platform's clock (not
// Date.now), one step either side of now is accepted, and a step already used is refused.
// docs/decisions/137.

export const TOTP_STEP_SECONDS = 30;
const DIGITS = 6;

/** Base32 (RFC 4648) as authenticator apps take it: upper case, no padding. */
export function base32Encode(bytes: Uint8Array): string {
  return encodeBase32UpperCaseNoPadding(bytes);
}

/** Decodes base32, ignoring case, spaces and padding; throws on any other character. */
export function base32Decode(text: string): Uint8Array {
  return decodeBase32IgnorePadding(text.replace(/[\s=]/g, "").toUpperCase());
}

/** The RFC 6238 time step of a moment (T0 = 0). */
export function totpStep(timeMs: number): number {
  return Math.floor(timeMs / 1000 / TOTP_STEP_SECONDS);
}

/** The code of a key at a moment (SHA-1, 30-second steps; 6 digits unless told, at most 8). */
export function totp(key: Uint8Array, timeMs: number, digits = DIGITS): string {
  return generateHOTP(key, BigInt(totpStep(timeMs)), digits);
}

/**
 * The time step a code belongs to, looking one step either side of now (clock drift and typing
 * time), or null. A step at or before `notAfterStep` (the last one used) is refused: no replay.
 */
export function verifyTotp(
  key: Uint8Array,
  code: string,
  timeMs: number,
  options: { window?: number; notAfterStep?: number | null } = {},
): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const now = totpStep(timeMs);
  const window = options.window ?? 1;
  for (let step = now - window; step <= now + window; step++) {
    if (step < 0 || (options.notAfterStep != null && step <= options.notAfterStep)) continue;
    if (verifyHOTP(key, BigInt(step), DIGITS, code)) return step;
  }
  return null;
}

/** verifyTotp on a stored base32 secret; null when there is no secret or the code does not match. */
export function matchTokenCode(
  secret: string | null | undefined,
  code: string,
  timeMs: number,
  notAfterStep: number | null = null,
): number | null {
  return secret ? usingBytes(base32Decode(secret), (key) => verifyTotp(key, code, timeMs, { notAfterStep })) : null;
}

/**
 * Whether a code refused by matchTokenCode is one of the secret's own, already used: it matches a
 * step within the window that is at or before the last one used (ASVS 4.0.3 V2.8.5, decision 181).
 * Only the log and the owner's notice tell it apart from a wrong code; the person typing it is told
 * the code is wrong, as for any other.
 */
export function isReusedTokenCode(
  secret: string | null | undefined,
  code: string,
  timeMs: number,
  lastStep: number | null,
): boolean {
  if (lastStep === null || matchTokenCode(secret, code, timeMs, lastStep) !== null) return false;
  const step = matchTokenCode(secret, code, timeMs);
  return step !== null && step <= lastStep;
}

/** A new 160-bit secret (RFC 4226 recommends 160 bits), base32 as apps take it. */
export function newTotpSecret(): string {
  return usingBytes(randomBytes(20), base32Encode);
}

/** The otpauth:// URI an authenticator app reads from a QR code. */
export function otpauthUri(secret: string, account: string, issuer: string): string {
  return usingBytes(base32Decode(secret), (key) => createTOTPKeyURI(issuer, account, key, TOTP_STEP_SECONDS, DIGITS));
}
