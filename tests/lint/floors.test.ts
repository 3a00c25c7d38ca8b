import { ESLint } from "eslint";
import { beforeAll, describe, expect, it } from "vitest";

// docs/decisions/090-one-room-per-page.md: the lint rules that keep the portal's floors one way and
// its pages in their own folders fail a deliberate violation. Each case lints text as if it were a
// file of the portal (nothing is written), with the project's own configuration.

let eslint: ESLint;

beforeAll(() => {
  eslint = new ESLint({ cwd: process.cwd() });
});

async function problems(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).map((m) => `${m.ruleId}: ${m.message}`);
}

describe("the portal's floors (lint)", { timeout: 60_000 }, () => {
  it("refuses a platform or session import in app/lib", async () => {
    const found = await problems(
      "app/lib/violation.ts",
      'import { createPlanningClient } from "~/planning/client.server";\nimport { getPortalSession } from "~/session/session.server";\nexport const both = [createPlanningClient, getPortalSession];\n',
    );
    expect(found).toHaveLength(2);
    expect(
      found.every((m) => m.startsWith("import-x/no-restricted-paths: ") && m.includes("app/lib holds pure rules")),
    ).toBe(true);
  });

  it("refuses the session or a route in app/planning", async () => {
    const found = await problems(
      "app/planning/violation.server.ts",
      'import { getPortalSession } from "~/session/session.server";\nimport { loader } from "~/routes/clients.home/route";\nexport const both = [getPortalSession, loader];\n',
    );
    expect(found).toHaveLength(2);
    expect(found.every((m) => m.includes("app/planning is the platform's client"))).toBe(true);
  });

  it("refuses one page's code in another page's folder", async () => {
    const found = await problems(
      "app/routes/clients.home/violation.server.ts",
      'import { buildBalanceSheet } from "~/routes/clients.balance-sheet/balance-sheet.server";\nexport const sheet = buildBalanceSheet;\n',
    );
    expect(found).toEqual([expect.stringContaining("import-x/no-restricted-paths: ")]);
    expect(found[0]).toContain("a page's own code stays in its route folder");
  });

  it("refuses an import cycle", async () => {
    // client-search.ts imports format.ts: format.ts importing it back closes a cycle
    const found = await problems(
      "app/lib/format.ts",
      'import { messageWithValues } from "./client-search";\nexport const search = messageWithValues;\n',
    );
    expect(found).toEqual([expect.stringMatching(/^import-x\/no-cycle: Dependency cycle detected/)]);
  });

  it("accepts the floors read downwards", async () => {
    const found = await problems(
      "app/routes/clients.home/fine.server.ts",
      'import { formatMoney } from "~/lib/format";\nimport { getSite } from "~/planning/site.server";\nimport { requireClientContext } from "~/session/guards.server";\nexport const all = [formatMoney, getSite, requireClientContext];\n',
    );
    expect(found).toEqual([]);
  });
});
