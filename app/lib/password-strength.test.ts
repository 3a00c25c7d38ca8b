import { describe, expect, it } from "vitest";
import { passwordStrength, STRENGTH_LABEL_KEYS } from "./password-strength";

describe("passwordStrength (spec 002 §5: Very Weak … Very Strong, score 0-4)", () => {
  it("has one label per score", () => {
    expect(STRENGTH_LABEL_KEYS).toHaveLength(5);
  });

  it("scores an empty or short password 0", () => {
    expect(passwordStrength("")).toBe(0);
    expect(passwordStrength("ab1")).toBe(0);
    expect(passwordStrength("Ab1!")).toBe(0);
  });

  it("scores common passwords, repeats and runs 0 whatever their length", () => {
    expect(passwordStrength("password")).toBe(0);
    expect(passwordStrength("Password1")).toBe(0);
    expect(passwordStrength("12345678")).toBe(0);
    expect(passwordStrength("aaaaaaaaaaaaaaaa")).toBe(0);
    expect(passwordStrength("abcdefghij")).toBe(0);
    expect(passwordStrength("87654321")).toBe(0);
  });

  it("rises with length and variety", () => {
    expect(passwordStrength("sunflower")).toBe(1); // 8+, one kind
    expect(passwordStrength("Sunflower7")).toBe(2); // 8+, three kinds
    expect(passwordStrength("Demo-pass-1")).toBe(3); // 8+, four kinds
    expect(passwordStrength("sunflowerfield")).toBe(2); // 12+, one kind
    expect(passwordStrength("Sunflower-field-7")).toBe(4); // 12+, four kinds
    expect(passwordStrength("correct horse battery")).toBe(3); // 16+, two kinds
  });

  it("counts letters of any script", () => {
    expect(passwordStrength("Éléphant-vert-9")).toBe(4);
  });

  it("caps a password containing the username at 1", () => {
    expect(passwordStrength("George.Patel-2024!", { username: "george.patel" })).toBe(1);
    expect(passwordStrength("George.Patel-2024!", { username: "someone" })).toBe(4);
  });
});
