import { existsSync, readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

// ASVS V1.1.2 (docs/decisions/193): the threat model is kept with the design and stays true to it.
// Every record and file it names exists; every record that names it is named back; every record
// from 192 on that speaks of security, threats or ASVS names it (the rule of docs/decisions/README.md).

const root = new URL("../../", import.meta.url);
const read = (path: string) => readFileSync(new URL(path, root), "utf8");
const model = read("docs/threat-model.md");
const records = readdirSync(new URL("docs/decisions/", root))
  .filter((name) => /^\d{3}-.+\.md$/.test(name))
  .map((name) => ({ name, number: Number(name.slice(0, 3)), text: read(`docs/decisions/${name}`) }));

/** The record numbers the threat model cites: "(046, 115, 173)", "decision 192", "114's sweep". */
function citedNumbers(text: string): Set<number> {
  const cited = new Set<number>();
  for (const [, list] of text.matchAll(/\(((?:\d{3}(?:'s [a-z]+)?(?:, | and )?)+)[;)]/g))
    for (const [number] of list!.matchAll(/\d{3}/g)) cited.add(Number(number));
  for (const [, number] of text.matchAll(/\b(?:decisions?|decision) (\d{3})\b/gi)) cited.add(Number(number));
  for (const [, number] of text.matchAll(/decisions\/(\d{3})-/g)) cited.add(Number(number));
  return cited;
}

/** Repository paths in backquotes: `tests/…`, `app/…`, `server/…`, `scripts/…`, `deploy/…`, `docs/…`. */
const citedPaths = (text: string) =>
  [...text.matchAll(/`((?:tests|app|server|scripts|deploy|docs|e2e)\/[^`\s]+\.[a-z]+)`/g)].map((m) => m[1]!);

const namesModel = (text: string) => /threat-model\.md/.test(text);

describe("the threat model (docs/threat-model.md)", () => {
  it("names records that exist, and many of them", () => {
    const numbers = new Set(records.map((r) => r.number));
    const cited = citedNumbers(model);
    expect(cited.size).toBeGreaterThan(30);
    for (const number of cited) expect(numbers.has(number), `decision ${number}`).toBe(true);
  });

  it("names files that exist", () => {
    const paths = citedPaths(model);
    expect(paths.length).toBeGreaterThan(30);
    for (const path of paths) expect(existsSync(new URL(path, root)), path).toBe(true);
  });

  it("names the settings the code reads", () => {
    const code = ["app/runtime/env.server.ts", "server/env.ts"].map(read).join("\n");
    const settings = [...model.matchAll(/`([A-Z]+_[A-Z_]+)`/g)].map((m) => m[1]!);
    expect(settings.length).toBeGreaterThan(5);
    for (const name of settings) expect(code, name).toContain(name);
  });

  it("covers every boundary of its diagram with a table of threats", () => {
    const boundaries = new Set([...model.matchAll(/\bB(\d)\b/g)].map((m) => m[1]));
    expect(boundaries.size).toBeGreaterThanOrEqual(9);
    for (const boundary of boundaries) expect(model, `B${boundary}`).toMatch(new RegExp(`^### B${boundary} `, "m"));
  });

  it("names back every record that names it", () => {
    const cited = citedNumbers(model);
    const naming = records.filter((r) => namesModel(r.text));
    expect(naming.length).toBeGreaterThan(0);
    for (const record of naming) expect(cited.has(record.number), record.name).toBe(true);
  });

  it("is named by every record from 192 on that speaks of security, threats or ASVS", () => {
    const relevant = records.filter((r) => r.number >= 192 && /security|threat|ASVS/i.test(r.text));
    expect(relevant.map((r) => r.number)).toContain(192);
    for (const record of relevant) expect(namesModel(record.text), record.name).toBe(true);
  });

  it("is asked for by the decisions' README and its template", () => {
    const readme = read("docs/decisions/README.md");
    expect(readme).toMatch(/Security-relevant decisions revisit the threat model/);
    expect(readme).toMatch(/Threat model: revisited/);
    expect(namesModel(readme)).toBe(true);
  });
});
