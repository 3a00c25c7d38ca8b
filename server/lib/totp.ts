import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

// RFC 4226 (HOTP) and RFC 6238 (TOTP) on node:crypto, for the software-token MFA method
// (spec 000 §3 "token"). Authenticator apps use SHA-1, 30-second steps and 6 digits.

const BASE32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

export function base32Encode(bytes: Uint8Array): string {
  let bits = 0;
  let value = 0;
  let out = "";
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32[(value << (5 - bits)) & 31];
  return out;
}

/** Decodes base32 (RFC 4648), ignoring case, spaces and padding; throws on any other character. */
export function base32Decode(text: string): Buffer {
  const clean = text.replace(/[\s=]/g, "").toUpperCase();
  let bits = 0;
  let value = 0;
  const out: number[] = [];
  for (const char of clean) {
    const index = BASE32.indexOf(char);
    if (index < 0) throw new Error("not base32");
    value = ((value << 5) | index) & 0xffff;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

export type TotpAlgorithm = "sha1" | "sha256" | "sha512";

/** RFC 4226 §5.3: HMAC of the 8-byte counter, dynamic truncation, modulo 10^digits. */
export function hotp(key: Uint8Array, counter: number, digits = 6, algorithm: TotpAlgorithm = "sha1"): string {
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(BigInt(counter));
  const mac = createHmac(algorithm, key).update(message).digest();
  const offset = (mac[mac.length - 1] as number) & 0x0f;
  const binary = mac.readUInt32BE(offset) & 0x7fffffff;
  return String(binary % 10 ** digits).padStart(digits, "0");
}

export const TOTP_STEP_SECONDS = 30;

/** The RFC 6238 time step of a moment (T0 = 0). */
export function totpStep(timeMs: number, stepSeconds = TOTP_STEP_SECONDS): number {
  return Math.floor(timeMs / 1000 / stepSeconds);
}

export function totp(
  key: Uint8Array,
  timeMs: number,
  options: { digits?: number; algorithm?: TotpAlgorithm; stepSeconds?: number } = {},
): string {
  return hotp(key, totpStep(timeMs, options.stepSeconds), options.digits ?? 6, options.algorithm ?? "sha1");
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
    if (timingSafeEqual(Buffer.from(hotp(key, step)), Buffer.from(code))) return step;
  }
  return null;
}

/** A new 160-bit secret (RFC 4226 recommends 160 bits), base32 as apps take it. */
export function newTotpSecret(): string {
  return base32Encode(randomBytes(20));
}

/** The otpauth:// URI an authenticator app reads from a QR code. */
export function otpauthUri(secret: string, account: string, issuer: string): string {
  const label = encodeURIComponent(`${issuer}:${account}`);
  const query = new URLSearchParams({
    secret,
    issuer,
    algorithm: "SHA1",
    digits: "6",
    period: String(TOTP_STEP_SECONDS),
  });
  return `otpauth://totp/${label}?${query.toString()}`;
}
