import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

// docs/decisions/135: every decision record says when it was taken and whether it still holds. A
// changed decision gets a new record that supersedes the old one, and the old one says by which.

const folder = new URL("../../docs/decisions/", import.meta.url);
const records = readdirSync(folder)
  .filter((name) => /^\d{3}-.+\.md$/.test(name))
  .map((name) => ({ name, number: name.slice(0, 3), text: readFileSync(new URL(name, folder), "utf8") }));

/** The record's header: the lines between its title and its first section. */
function header(text: string): string[] {
  const lines = text.split("\n");
  const end = lines.findIndex((line) => line.startsWith("## "));
  return lines.slice(1, end === -1 ? undefined : end);
}

/** The numbers a record says it supersedes ("Supersedes part of 078 …, part of 080 …"). */
function supersedes(record: { number: string; text: string }): string[] {
  return [...record.text.matchAll(/Supersedes([^.]*)/g)]
    .flatMap((match) => match[1]!.match(/\b\d{3}\b/g) ?? [])
    .filter((number) => number !== record.number);
}

describe("the decision records", () => {
  it("are numbered once each, and each title starts with its number", () => {
    const numbers = records.map((r) => r.number);
    expect(new Set(numbers).size).toBe(numbers.length);
    for (const record of records)
      expect(record.text.split("\n")[0], record.name).toMatch(new RegExp(`^# ${record.number}\\b`));
  });

  it("each carry a date and a status in their header", () => {
    for (const record of records) {
      const lines = header(record.text);
      expect(
        lines.filter((line) => /^Date: \d{4}-\d{2}-\d{2}$/.test(line)),
        record.name,
      ).toHaveLength(1);
      expect(
        lines.filter((line) => /^Status: (Accepted|Superseded by \d{3})\b/.test(line)),
        record.name,
      ).toHaveLength(1);
    }
  });

  it("name, when superseded, every record that supersedes them", () => {
    const byNumber = new Map(records.map((r) => [r.number, r]));
    for (const record of records) {
      for (const older of supersedes(record)) {
        const status = header(byNumber.get(older)?.text ?? "").find((line) => line.startsWith("Status:")) ?? "";
        expect(status, `${older} is superseded in part by ${record.number}`).toMatch(
          new RegExp(`Superseded (in part )?by [^.]*\\b${record.number}\\b`),
        );
      }
    }
  });
});
