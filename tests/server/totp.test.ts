import { describe, expect, it } from "vitest";
import { answerMinLength, securityQuestionsProblem } from "../../server/domain/security-questions";
import { maskEmail, maskMobile } from "../../server/domain/mfa";
import { passwordProblem } from "../../server/domain/password-policy";
import { hashSecret } from "../../server/lib/password";
import { base32Decode, base32Encode, hotp, otpauthUri, totp, verifyTotp } from "../../server/lib/totp";

const SHA1_KEY = Buffer.from("12345678901234567890", "ascii");
const SHA256_KEY = Buffer.from("12345678901234567890123456789012", "ascii");
const SHA512_KEY = Buffer.from("1234567890123456789012345678901234567890123456789012345678901234", "ascii");

// RFC 6238 Appendix B: time (seconds) → 8-digit TOTP for SHA-1, SHA-256, SHA-512
const RFC6238 = [
  [59, "94287082", "46119246", "90693936"],
  [1111111109, "07081804", "68084774", "25091201"],
  [1111111111, "14050471", "67062674", "99943326"],
  [1234567890, "89005924", "91819424", "93441116"],
  [2000000000, "69279037", "90698825", "38618901"],
  [20000000000, "65353130", "77737706", "47863826"],
] as const;

describe("HOTP and TOTP (RFC 4226, RFC 6238)", () => {
  it("matches the RFC 4226 HOTP test values", () => {
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
    expect(expected.map((_, counter) => hotp(SHA1_KEY, counter))).toEqual(expected);
  });

  it.each(RFC6238)("matches the RFC 6238 test vectors at T=%i", (seconds, sha1, sha256, sha512) => {
    const ms = seconds * 1000;
    expect(totp(SHA1_KEY, ms, { digits: 8 })).toBe(sha1);
    expect(totp(SHA256_KEY, ms, { digits: 8, algorithm: "sha256" })).toBe(sha256);
    expect(totp(SHA512_KEY, ms, { digits: 8, algorithm: "sha512" })).toBe(sha512);
  });

  it("accepts a code one step either side of now, not two, and never a step already used", () => {
    const now = 1111111111_000;
    const at = (offsetSteps: number) => totp(SHA1_KEY, now + offsetSteps * 30_000);
    expect(verifyTotp(SHA1_KEY, at(0), now)).toBe(Math.floor(1111111111 / 30));
    expect(verifyTotp(SHA1_KEY, at(-1), now)).not.toBeNull();
    expect(verifyTotp(SHA1_KEY, at(1), now)).not.toBeNull();
    expect(verifyTotp(SHA1_KEY, at(2), now)).toBeNull();
    expect(verifyTotp(SHA1_KEY, at(-2), now)).toBeNull();
    const used = verifyTotp(SHA1_KEY, at(0), now);
    expect(verifyTotp(SHA1_KEY, at(0), now, { notAfterStep: used })).toBeNull();
    expect(verifyTotp(SHA1_KEY, at(1), now, { notAfterStep: used })).toBe((used ?? 0) + 1);
    expect(verifyTotp(SHA1_KEY, "12345", now)).toBeNull();
  });

  it("round-trips base32 and reads the demo token's secret as the RFC key", () => {
    expect(base32Encode(SHA1_KEY)).toBe("GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ");
    expect(base32Decode("gezd gnbv gy3t qojq gezd gnbv gy3t qojq").equals(SHA1_KEY)).toBe(true);
    expect(base32Encode(Buffer.from("foobar"))).toBe("MZXW6YTBOI");
    expect(() => base32Decode("not base32!")).toThrow();
    expect(otpauthUri("GEZDGNBV", "demo.token", "Client Online")).toBe(
      "otpauth://totp/Client%20Online%3Ademo.token?secret=GEZDGNBV&issuer=Client+Online&algorithm=SHA1&digits=6&period=30",
    );
  });
});

describe("account rules", () => {
  it("applies the password policy in order", () => {
    const user = { username: "demo.client", passwordHash: hashSecret("Current-pass-1") };
    expect(passwordProblem("Ab1", user)).toBe("The password must be at least 8 characters long.");
    expect(passwordProblem(`a1${"x".repeat(127)}`, user)).toBe("The password must be at most 128 characters long.");
    expect(passwordProblem("abcdefgh", user)).toBe("The password must contain at least one letter and one number.");
    expect(passwordProblem("12345678", user)).toBe("The password must contain at least one letter and one number.");
    expect(passwordProblem("my-Demo.Client-9", user)).toBe("The password must not contain your username.");
    expect(passwordProblem("Current-pass-1", user)).toBe(
      "The new password must be different from your current password.",
    );
    expect(passwordProblem("Brand-new-2", user)).toBeNull();
  });

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
