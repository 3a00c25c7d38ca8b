import { readFileSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { demoLoginsOf, DEMO_PASSWORD_FALLBACK, formatDemoLogins, readDemoLogins } from "../../scripts/demo-logins.mjs";
import { type Platform, startPlatform } from "../server/harness";

// Issue 25 finding 21 (docs/decisions/121): `npm start` prints the demo logins of the README's
// table, read from the README itself, so the two cannot disagree; and every login of that table
// signs in to the demo data as its tab says.

const readme = readFileSync(new URL("../../README.md", import.meta.url), "utf8");

const started: Platform[] = [];
afterAll(async () => {
  for (const platform of started) await platform.close();
});

describe("the demo logins", () => {
  it("are read from the README's table, every username of every row with its tab", () => {
    const logins = readDemoLogins();
    const usernames = logins.rows.flatMap((row) => row.usernames);
    expect(usernames).toEqual(
      expect.arrayContaining([
        "demo.client",
        "demo.partner",
        "demo.factfind",
        "demo.robo",
        "demo.mfa",
        "demo.newuser",
        "demo.adviser",
        "demo.adviser2",
      ]),
    );
    // every demo.* name the README's table cells start with is a login
    const start = readme.search(/^\| username +\|/m);
    const table = readme.slice(start, readme.indexOf("\n\n", start));
    const firstCells = table
      .split("\n")
      .slice(2)
      .map((line) => line.split("|")[1]!);
    expect(usernames).toEqual(firstCells.flatMap((cell) => cell.match(/demo\.[a-z0-9]+/g) ?? []));
    expect(logins.rows.find((row) => row.usernames.includes("demo.adviser2"))?.tab).toBe("Adviser");
    expect(logins.rows.find((row) => row.usernames.includes("demo.robo"))?.tab).toBe("Client");
    expect(logins.password).toBe("Demo-pass-1");
  });

  it("are printed by npm start as the table says: each username, its tab and what it shows first", () => {
    const text = formatDemoLogins(readDemoLogins());
    for (const username of readDemoLogins().rows.flatMap((row) => row.usernames)) expect(text).toContain(username);
    expect(text).toContain("Demo logins (password Demo-pass-1)");
    expect(text).toMatch(/demo\.factfind +Client tab +a client with Assets access and two notifications/);
    expect(text).toMatch(/demo\.adviser2 +Adviser tab +another adviser, whose clients demo\.adviser must not see/);
    // the first clause of a long description, not the whole row
    expect(text).toMatch(/demo\.client +Client tab +a client with full \(Portfolio\) access\n/);
    expect(text).not.toContain("three years of prices");
  });

  it("have one source: npm start names no login itself", () => {
    const start = readFileSync(new URL("../../scripts/start.mjs", import.meta.url), "utf8");
    expect(start).not.toMatch(/demo\.[a-z]/);
    expect(start).toContain("readDemoLogins");
  });

  it("says where to look when the README's table cannot be read", () => {
    expect(demoLoginsOf("# A README without the table\n").rows).toEqual([]);
    expect(formatDemoLogins(demoLoginsOf(""))).toContain("README.md");
    expect(demoLoginsOf("").password).toBe(DEMO_PASSWORD_FALLBACK);
  });

  it("each sign in to the demo data on its tab", { timeout: 60_000 }, async () => {
    const platform = await startPlatform();
    started.push(platform);
    for (const row of readDemoLogins().rows) {
      for (const username of row.usernames) {
        const answer = await platform.login(
          username,
          row.tab === "Adviser" ? "adviser" : "client",
          readDemoLogins().password,
        );
        expect(answer.status, username).toBe(200);
        if (row.tab === "Adviser") expect(answer.body.login_status, username).toBe("LoginSuccess");
      }
    }
  });
});
