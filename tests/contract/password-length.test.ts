import { describe, expect, it } from "vitest";
import { passwordLength as portalLength, passwordStrength } from "~/lib/password-strength";
import { passwordLength as platformLength } from "../../server/domain/password-policy";

// The platform's minimum (decision 171) and the portal's strength meter count a password's length
// alike: Unicode characters, each run of white space as one (ASVS 4.0.3 V2.1.1).
describe("a password's length, in the portal and the platform", () => {
  const samples: [string, number][] = [
    ["Lapwing-ord1", 12],
    ["abc" + " ".repeat(9), 4],
    [" ".repeat(12), 1],
    ["lapwing orchard kettle", 22],
    ["lapwing   orchard\t\tkettle", 22],
    ["ŵŷŝęçåřđñöüþ", 12],
    ["a \u00a0 \u3000b", 3],
    ["", 0],
  ];

  it("combines runs of spaces and counts characters, not bytes", () => {
    for (const [password, length] of samples) {
      expect(platformLength(password), JSON.stringify(password)).toBe(length);
      expect(portalLength(password), JSON.stringify(password)).toBe(length);
    }
  });

  it("lets the meter give no length credit for padding", () => {
    expect(passwordStrength("aB3!" + " ".repeat(12))).toBeLessThan(passwordStrength("aB3!xyzqwpmv"));
  });
});
