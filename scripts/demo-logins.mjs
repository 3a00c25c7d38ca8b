// The demo logins, as the README's table lists them ("Run it"): `npm start` prints them from the
// README itself, so the two say the same (docs/decisions/121). The README is the one source: a row
// added there is printed at the next start.
import { readFileSync } from "node:fs";

/** The password the README's sentence above the table names, when it cannot be read. */
export const DEMO_PASSWORD_FALLBACK = "Demo-pass-1";

/**
 * @typedef {{ usernames: string[]; tab: string; shows: string }} DemoLoginRow
 * @typedef {{ password: string; rows: DemoLoginRow[] }} DemoLogins
 */

/** The cells of one Markdown table row. */
const cellsOf = (line) =>
  line
    .trim()
    .replace(/^\||\|$/g, "")
    .split("|")
    .map((cell) => cell.trim());

/**
 * The table under "Demo logins, all with the password `…`:" (username | tab | what it shows); no
 * rows when the README has no such table.
 * @param {string} readme
 * @returns {DemoLogins}
 */
export function demoLoginsOf(readme) {
  const lines = readme.split("\n");
  const intro = lines.findIndex((line) => line.startsWith("Demo logins"));
  const password =
    intro >= 0 ? (/`([^`]+)`/.exec(lines[intro])?.[1] ?? DEMO_PASSWORD_FALLBACK) : DEMO_PASSWORD_FALLBACK;
  if (intro < 0) return { password, rows: [] };
  let at = intro + 1;
  while (at < lines.length && !lines[at].startsWith("|")) at++;
  const rows = [];
  // the header and the separator, then the rows up to the first line that is not the table's
  for (at += 2; at < lines.length && lines[at].startsWith("|"); at++) {
    const [usernames = "", tab = "", shows = ""] = cellsOf(lines[at]);
    rows.push({
      usernames: usernames
        .split(",")
        .map((name) => name.trim())
        .filter(Boolean),
      tab,
      shows,
    });
  }
  return { password, rows };
}

/** The README beside this folder's parent, read at each start. */
export function readDemoLogins(path = new URL("../README.md", import.meta.url)) {
  try {
    return demoLoginsOf(readFileSync(path, "utf8"));
  } catch {
    return demoLoginsOf("");
  }
}

/**
 * What a row shows, up to its first ':' or ';' outside parentheses: the README's own summary of it
 * (the rest of a long row is in the README).
 */
function firstClause(text) {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (char === "(") depth++;
    else if (char === ")") depth = Math.max(0, depth - 1);
    else if (depth === 0 && (char === ":" || char === ";")) return text.slice(0, i).trim();
  }
  return text.trim();
}

/**
 * The lines `npm start` prints: each username, its tab and what it shows first, in the table's order.
 * @param {DemoLogins} logins
 */
export function formatDemoLogins({ password, rows }) {
  if (rows.length === 0) return `  Demo logins (password ${password}): see the table in README.md.`;
  const lines = rows.flatMap((row) =>
    row.usernames.map((username) => ({ username, tab: `${row.tab} tab`, shows: firstClause(row.shows) })),
  );
  const nameWidth = Math.max(...lines.map((line) => line.username.length));
  const tabWidth = Math.max(...lines.map((line) => line.tab.length));
  return [
    `  Demo logins (password ${password}), as README.md's table describes them:`,
    ...lines.map((line) => `    ${line.username.padEnd(nameWidth)}  ${line.tab.padEnd(tabWidth)}  ${line.shows}`),
  ].join("\n");
}
