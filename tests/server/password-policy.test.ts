import { describe, expect, it } from "vitest";
import { DEMO_PASSWORD } from "../../server/seed";
import { isCommonPassword, PASSWORD_MESSAGES, passwordProblem } from "../../server/domain/password-policy";
import { hashSecret } from "../../server/lib/password";

// ASVS 4.0.3 V2.1 (docs/decisions/171): 12 characters at least, no composition rule, no common or
// breached password.
describe("the password policy", () => {
  const user = { username: "demo.client", passwordHash: hashSecret("Current-pass-12") };

  it("needs 12 characters, counted as characters, and allows 128", () => {
    expect(passwordProblem("Lapwing-ord1", user)).toBeNull();
    expect(passwordProblem("Lapwing-ord", user)).toBe(PASSWORD_MESSAGES.tooShort);
    // eleven characters of several bytes each are still eleven
    expect(passwordProblem("ŵŷŝęçåřđñöü", user)).toBe(PASSWORD_MESSAGES.tooShort);
    expect(passwordProblem("ŵŷŝęçåřđñöüþ", user)).toBeNull();
    expect(passwordProblem("x".repeat(64) + "lapwing".repeat(9) + "y", user)).toBeNull();
    expect(passwordProblem("lapwing".repeat(18) + "yz", user)).toBeNull();
    expect(passwordProblem("lapwing".repeat(18) + "xyz", user)).toBe(PASSWORD_MESSAGES.tooLong);
  });

  it("counts a run of spaces as one (ASVS V2.1.1)", () => {
    expect(passwordProblem("abc" + " ".repeat(9), user)).toBe(PASSWORD_MESSAGES.tooShort);
    expect(passwordProblem("Lapwing" + " ".repeat(5) + "ord", user)).toBe(PASSWORD_MESSAGES.tooShort);
    expect(passwordProblem("Lapwing" + " ".repeat(5) + "orch", user)).toBeNull();
    expect(passwordProblem("lapwing\t\t\torchard", user)).toBeNull();
    // the maximum counts every character as typed
    expect(passwordProblem("lapwing orchard" + " ".repeat(110) + "kettle", user)).toBe(PASSWORD_MESSAGES.tooLong);
  });

  it("asks for no kind of character", () => {
    expect(passwordProblem("lapwing orchard kettle", user)).toBeNull();
    expect(passwordProblem("9472 3816 5520", user)).toBeNull();
    expect(passwordProblem("LAPWINGORCHARD", user)).toBeNull();
  });

  it("refuses common and breached passwords, also dressed up", () => {
    for (const common of [
      "qwertyuiop123",
      "1q2w3e4r5t6y",
      "Password2024!",
      "Manchester2024!",
      "!!Sunshine12345",
      "letmeinletmein",
    ]) {
      expect(isCommonPassword(common), common).toBe(true);
      expect(passwordProblem(common, user), common).toBe(PASSWORD_MESSAGES.common);
    }
    for (const rare of ["Lapwing-orchard-17", "correct horse battery staple", "Brand-new-pass-2"]) {
      expect(isCommonPassword(rare), rare).toBe(false);
    }
  });

  it("refuses the username and the current password", () => {
    expect(passwordProblem("my-Demo.Client-9", user)).toBe(PASSWORD_MESSAGES.containsUsername);
    expect(passwordProblem("Current-pass-12", user)).toBe(PASSWORD_MESSAGES.sameAsCurrent);
  });

  it("takes the rules in order, the first one broken answered", () => {
    expect(passwordProblem("qwerty", user)).toBe(PASSWORD_MESSAGES.tooShort);
    expect(passwordProblem("demo.client2024", user)).toBe(PASSWORD_MESSAGES.containsUsername);
  });

  it("is a rule for new passwords: the demo password is one no new password may be", () => {
    // seeded logins keep signing in with it (tests/server/account.test.ts changes it)
    expect(passwordProblem(DEMO_PASSWORD, user)).toBe(PASSWORD_MESSAGES.tooShort);
  });
});
