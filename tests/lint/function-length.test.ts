import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

// docs/decisions/136: functions in app/, server/ and scripts/ stay under 80 lines. Lint fails a
// longer one; the few exemptions each say why, and there are at most ten of them.

const EXEMPTION = "eslint-disable-next-line max-lines-per-function";

function sources(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return sources(path);
    return /\.(ts|tsx|mjs)$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

const exemptions = ["app", "server", "scripts"].flatMap(sources).flatMap((file) =>
  readFileSync(file, "utf8")
    .split("\n")
    .filter((line) => line.includes(EXEMPTION))
    .map((line) => ({ file, reason: line.split(" -- ")[1]?.trim() ?? "" })),
);

describe("the length of functions (lint)", () => {
  it("fails a function of 80 lines in the portal, the platform and the scripts, but not in a test", async () => {
    const eslint = new ESLint({ cwd: process.cwd() });
    const long = `export function long(): number {\n  let n = 0;\n${"  n += 1;\n".repeat(76)}  return n;\n}\n`;
    const short = `export function short(): number {\n  let n = 0;\n${"  n += 1;\n".repeat(75)}  return n;\n}\n`;
    const rules = async (filePath: string, code: string) =>
      ((await eslint.lintText(code, { filePath }))[0]?.messages ?? []).map((m) => m.ruleId);
    expect(await rules("app/lib/violation.ts", long)).toContain("max-lines-per-function");
    expect(await rules("server/domain/violation.ts", long)).toContain("max-lines-per-function");
    expect(await rules("app/lib/violation.ts", short)).not.toContain("max-lines-per-function");
    expect(await rules("app/lib/violation.test.ts", long)).not.toContain("max-lines-per-function");
  }, 60_000);

  it("allows at most ten exemptions, each with its reason", () => {
    expect(exemptions.length).toBeLessThanOrEqual(10);
    for (const exemption of exemptions) expect(exemption.reason, exemption.file).not.toBe("");
  });
});
