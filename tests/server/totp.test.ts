import { describe, expect, it } from "vitest";
import { answerMinLength, securityQuestionsProblem } from "../../server/domain/security-questions";
import { maskEmail, maskMobile } from "../../server/domain/mfa";
import { checkDeviceCode } from "../../server/domain/mfa";
import { tokenDigest } from "../../server/lib/tokens";
import {
  base32Decode,
  base32Encode,
  isReusedTokenCode,
  matchTokenCode,
  otpauthUri,
  totp,
  totpStep,
  verifyTotp,
} from "../../server/lib/totp";

const SHA1_KEY = Buffer.from("12345678901234567890", "ascii");
const DEMO_SECRET = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ";

// RFC 6238 Appendix B: time (seconds) → 8-digit TOTP for SHA-1 (the algorithm authenticator apps use)
const RFC6238 = [
  [59, "94287082"],
  [1111111109, "07081804"],
  [1111111111, "14050471"],
  [1234567890, "89005924"],
  [2000000000, "69279037"],
  [20000000000, "65353130"],
] as const;

describe("HOTP and TOTP (RFC 4226, RFC 6238)", () => {
  it("matches the RFC 4226 HOTP test values (counter n is the time step n)", () => {
    const expected = [
      "755224",
      "287082",
      "359152",
      "969429",
      "338314",
      "254676",
      "287922",
      "162583",
      "399871",
      "520489",
    ];
    expect(expected.map((_, counter) => totp(SHA1_KEY, counter * 30_000))).toEqual(expected);
  });

  it.each(RFC6238)("matches the RFC 6238 SHA-1 test vectors at T=%i", (seconds, sha1) => {
    expect(totp(SHA1_KEY, seconds * 1000, 8)).toBe(sha1);
    expect(totpStep(seconds * 1000)).toBe(Math.floor(seconds / 30));
  });

  it("accepts a code one step either side of now, not two, and never a step already used", () => {
    const now = 1111111111_000;
    const at = (offsetSteps: number) => totp(SHA1_KEY, now + offsetSteps * 30_000);
    expect(verifyTotp(SHA1_KEY, at(0), now)).toBe(Math.floor(1111111111 / 30));
    expect(verifyTotp(SHA1_KEY, at(-1), now)).toBe(Math.floor(1111111111 / 30) - 1);
    expect(verifyTotp(SHA1_KEY, at(1), now)).toBe(Math.floor(1111111111 / 30) + 1);
    expect(verifyTotp(SHA1_KEY, at(2), now)).toBeNull();
    expect(verifyTotp(SHA1_KEY, at(-2), now)).toBeNull();
    const used = verifyTotp(SHA1_KEY, at(0), now);
    expect(verifyTotp(SHA1_KEY, at(0), now, { notAfterStep: used })).toBeNull();
    expect(verifyTotp(SHA1_KEY, at(-1), now, { notAfterStep: used })).toBeNull();
    expect(verifyTotp(SHA1_KEY, at(1), now, { notAfterStep: used })).toBe((used ?? 0) + 1);
    expect(verifyTotp(SHA1_KEY, "12345", now)).toBeNull();
    expect(verifyTotp(SHA1_KEY, totp(SHA1_KEY, now, 8), now)).toBeNull();
  });

  it("tells a code already used apart from a wrong one (decision 181)", () => {
    const now = 1111111111_000;
    const step = totpStep(now);
    const at = (offsetSteps: number) => totp(SHA1_KEY, now + offsetSteps * 30_000);
    // the last step used, and the one before it, within the window: reused
    expect(isReusedTokenCode(DEMO_SECRET, at(0), now, step)).toBe(true);
    expect(isReusedTokenCode(DEMO_SECRET, at(-1), now, step)).toBe(true);
    // a later step is not reused (it is accepted); a wrong code, or one outside the window, is wrong
    expect(isReusedTokenCode(DEMO_SECRET, at(1), now, step)).toBe(false);
    expect(isReusedTokenCode(DEMO_SECRET, at(-2), now, step)).toBe(false);
    expect(isReusedTokenCode(DEMO_SECRET, at(0) === "000000" ? "111111" : "000000", now, step)).toBe(false);
    // nothing used yet, or no secret: never reused
    expect(isReusedTokenCode(DEMO_SECRET, at(0), now, null)).toBe(false);
    expect(isReusedTokenCode(null, at(0), now, step)).toBe(false);
  });

  it("matches a stored secret's code, refusing a missing secret and the last step used", () => {
    const now = 1111111111_000;
    const code = totp(SHA1_KEY, now);
    expect(matchTokenCode(DEMO_SECRET, code, now)).toBe(totpStep(now));
    expect(matchTokenCode(DEMO_SECRET, code, now, totpStep(now))).toBeNull();
    expect(matchTokenCode(null, code, now)).toBeNull();
    expect(matchTokenCode(undefined, code, now)).toBeNull();
  });

  it("round-trips base32 and reads the demo token's secret as the RFC key", () => {
    expect(base32Encode(SHA1_KEY)).toBe(DEMO_SECRET);
    expect(Buffer.from(base32Decode("gezd gnbv gy3t qojq gezd gnbv gy3t qojq")).equals(SHA1_KEY)).toBe(true);
    expect(Buffer.from(base32Decode("MZXW6YTBOI======")).toString()).toBe("foobar");
    expect(base32Encode(Buffer.from("foobar"))).toBe("MZXW6YTBOI");
    expect(() => base32Decode("not base32!")).toThrow();
  });

  it("writes the otpauth:// URI an authenticator app reads", () => {
    const uri = new URL(otpauthUri(DEMO_SECRET, "demo.token", "Client Online"));
    expect(`${uri.protocol}//${uri.host}`).toBe("otpauth://totp");
    expect(decodeURIComponent(uri.pathname)).toBe("/Client Online:demo.token");
    expect(Object.fromEntries(uri.searchParams)).toEqual({
      secret: DEMO_SECRET,
      issuer: "Client Online",
      algorithm: "SHA1",
      digits: "6",
      period: "30",
    });
  });
});

describe("the device-code check (sign-in enrolment and the account page)", () => {
  const now = new Date(1111111111_000);
  const tokenDevice = { method: "token" as const, totpSecret: DEMO_SECRET };

  it("checks a software token's code against its secret and keeps the step it matched", () => {
    expect(checkDeviceCode(tokenDevice, totp(SHA1_KEY, now.getTime()), null, now)).toEqual({
      right: true,
      matchedStep: totpStep(now.getTime()),
    });
    const wrong = totp(SHA1_KEY, now.getTime()) === "000000" ? "111111" : "000000";
    expect(checkDeviceCode(tokenDevice, wrong, null, now)).toEqual({ right: false, matchedStep: null });
    expect(checkDeviceCode({ method: "token", totpSecret: null }, "123456", null, now).right).toBe(false);
  });

  it("checks a sent code against its digest, never a token's code", () => {
    const sent = { method: "sms" as const, totpSecret: DEMO_SECRET };
    expect(checkDeviceCode(sent, "123456", tokenDigest("123456"), now)).toEqual({ right: true, matchedStep: null });
    expect(checkDeviceCode(sent, "654321", tokenDigest("123456"), now).right).toBe(false);
    expect(checkDeviceCode(sent, totp(SHA1_KEY, now.getTime()), null, now).right).toBe(false);
    expect(checkDeviceCode({ method: "email" }, "123456", null, now).right).toBe(false);
  });

  it("refuses a missing code", () => {
    expect(checkDeviceCode(tokenDevice, null, tokenDigest("123456"), now)).toEqual({ right: false, matchedStep: null });
    expect(checkDeviceCode({ method: "sms" }, null, tokenDigest("123456"), now).right).toBe(false);
  });
});

describe("account rules", () => {
  it("needs 8-character answers only on the platform versions spec 002 names", () => {
    expect(answerMinLength("22.8.233")).toBe(0);
    expect(answerMinLength("22.8.234")).toBe(8);
    expect(answerMinLength("22.9.237")).toBe(8);
    expect(answerMinLength("22.9.238")).toBe(0);
    expect(answerMinLength("22.9.240")).toBe(0);
    expect(answerMinLength("23.0.1")).toBe(0);
  });

  it("checks security questions and answers", () => {
    const q = (question: string, answer: string) => ({ question, answer });
    expect(securityQuestionsProblem([q(" ", "a"), q("B?", "b")], 0)).toBe("Please enter a security question.");
    expect(securityQuestionsProblem([q("x".repeat(257), "a"), q("B?", "b")], 0)).toBe(
      "Question needs to be at most 256 characters",
    );
    expect(securityQuestionsProblem([q("A?", ""), q("B?", "b")], 0)).toBe(
      "Please enter an answer to your security question.",
    );
    expect(securityQuestionsProblem([q("A?", "a".repeat(257)), q("B?", "b")], 0)).toBe(
      "Answers must be at most 256 characters",
    );
    expect(securityQuestionsProblem([q("A?", "short"), q("B?", "longenough")], 8)).toBe(
      "Answers must be at least 8 characters",
    );
    expect(securityQuestionsProblem([q("Same?", "a"), q(" same? ", "b")], 0)).toBe(
      "Please select two different security questions.",
    );
    expect(securityQuestionsProblem([q("x".repeat(256), "a".repeat(256)), q("B?", "b")], 0)).toBeNull();
  });

  it("masks a mobile and an email", () => {
    expect(maskMobile("+447700900123")).toBe("+********0123");
    expect(maskEmail("grace.oneill@example.com")).toBe("g***@example.com");
    expect(maskMobile(null)).toBeNull();
  });
});
