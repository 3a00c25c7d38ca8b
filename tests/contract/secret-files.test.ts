import { describe, expect, it } from "vitest";
import { withSecretFiles as portalRule } from "~/runtime/secret-files.server";
import { withSecretFiles as platformRule } from "../../server/lib/secret-files";

// The portal and the platform each read their secrets from NAME_FILE (docs/decisions/187): an
// operator wires both the same way, so the two copies of the rule must agree.

const files: Record<string, string> = { "/run/secrets/one": "first\n", "/run/secrets/two": "a,b\r\n\n" };
const read = (path: string) => {
  if (path in files) return files[path]!;
  throw Object.assign(new Error(`ENOENT: ${path}`), { code: "ENOENT" });
};

/** What a rule answers: the environment it makes, or the message it refuses with. */
function outcome(rule: typeof portalRule, source: Record<string, string | undefined>, names: string[]) {
  try {
    return { env: rule(source, names, read) };
  } catch (error) {
    return { refused: (error as Error).message };
  }
}

describe("secrets from files, in the portal and the platform", () => {
  const cases: Array<[Record<string, string | undefined>, string[]]> = [
    [{ A_FILE: "/run/secrets/one", B: "kept", C_FILE: "" }, ["A", "B", "C"]],
    [{ A_FILE: "/run/secrets/two" }, ["A"]],
    [{ A: "x", A_FILE: "/run/secrets/one" }, ["A"]],
    [{ A: "", A_FILE: "/run/secrets/one" }, ["A"]],
    [{ A_FILE: "/run/secrets/missing" }, ["A"]],
    [{ OTHER_FILE: "/run/secrets/one" }, ["A"]],
  ];

  it("answer alike: the same values, the same refusals", () => {
    for (const [source, names] of cases)
      expect(outcome(portalRule, source, names), JSON.stringify(source)).toEqual(outcome(platformRule, source, names));
  });

  it("take the file's text without its line ends, and never show it in a refusal", () => {
    expect(outcome(portalRule, { A_FILE: "/run/secrets/two" }, ["A"])).toEqual({
      env: { A_FILE: "/run/secrets/two", A: "a,b" },
    });
    const refused = outcome(portalRule, { A: "x", A_FILE: "/run/secrets/one" }, ["A"]).refused ?? "";
    expect(refused).toBe("A and A_FILE are both set: set one of them");
    expect(refused).not.toContain("first");
  });
});
