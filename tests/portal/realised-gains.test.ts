import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callLoader, type Portal, signInDemoUsers, startPortal, thrown } from "./portal-harness";

// Issue 41 "Realised gains and losses" (decision 201): the page and its CSV as demo.client and the
// adviser with her in context see them, for the analysis page's selection; the wrapped accounts
// named; nothing for someone else's account or for a client without Portfolio access.

let portal: Portal;
let users: Awaited<ReturnType<typeof signInDemoUsers>>;

beforeAll(async () => {
  portal = await startPortal();
  users = await signInDemoUsers(portal);
});
afterAll(() => portal?.close());

type PageData = {
  heading: string;
  view: {
    included: string[];
    excluded: Array<{ name: string; type: string | null }>;
    years: Array<{
      label: string;
      rows: Array<{ security: string; code: string; isoDate: string; parts: Array<{ rule: string }> }>;
      totals: Array<{ currency: string; gains: string; losses: string; net: { text: string } }>;
      allowance: { individual: string; sourceUrl: string } | null;
    }>;
  } | null;
  downloadHref: string;
  analysisHref: string;
};

const page = async (search: string, cookie = users.client) => {
  const route = await import("~/routes/clients.analysis_.gains/route");
  const response = await callLoader(route, `/clients/analysis/gains${search}`, cookie);
  return response;
};
const csv = async (search: string, cookie = users.client) => {
  const route = await import("~/routes/clients.analysis_.gains_.download/route");
  return callLoader(route, `/clients/analysis/gains/download${search}`, cookie);
};

/** A CSV's lines as cells (the file quotes cells with commas, as the other downloads do). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = "";
  let quoted = false;
  const body = text.replace(/^\uFEFF/, "");
  for (let i = 0; i < body.length; i++) {
    const c = body[i] as string;
    if (quoted) {
      if (c === '"' && body[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") {
      row.push(cell);
      cell = "";
    } else if (c === "\n" || c === "\r") {
      if (c === "\r" && body[i + 1] === "\n") i++;
      row.push(cell);
      rows.push(row);
      row = [];
      cell = "";
    } else cell += c;
  }
  if (cell || row.length) rows.push([...row, cell]);
  return rows;
}

describe("realised gains page", () => {
  it("lists demo.client's disposals by tax year, each with its rules, and names the wrapped accounts", async () => {
    const response = await page("");
    expect(response.status).toBe(200);
    const data = (await response.json()) as PageData;
    expect(data.heading).toBe("All portfolios");
    expect(data.view?.included).toEqual(["Joint General Investment Account", "Hartley Family Trust account"]);
    expect(data.view?.excluded).toEqual([
      { name: "Ellie Stocks and Shares ISA", type: "Individual Savings Account" },
      { name: "Ellie Self-Invested Personal Pension", type: "Personal pension (SIPP)" },
    ]);
    const years = data.view?.years ?? [];
    expect(years.length).toBeGreaterThan(1);
    const rules = new Set(years.flatMap((y) => y.rows.flatMap((r) => r.parts.map((p) => p.rule))));
    expect(rules).toEqual(new Set(["same-day", "thirty-day", "section-104"]));
    for (const y of years) expect(y.totals[0]?.currency).toBe("GBP");
    expect(years.find((y) => y.label === "2024-25")?.allowance).toMatchObject({
      individual: "£3,000.00",
      sourceUrl: expect.stringMatching(/^https:\/\/www\.gov\.uk\//),
    });
    expect(data.analysisHref).toBe("/clients/analysis");
    expect(data.downloadHref).toBe("/clients/analysis/gains/download");
  });

  it("covers the selection: an ISA alone is named as excluded and has no disposals", async () => {
    const all = (await (await page("")).json()) as PageData;
    // the ISA's id, read from the platform's account list
    const accounts = portal.platform.db.$client
      .prepare("SELECT id, description FROM accounts WHERE description = ?")
      .all("Ellie Stocks and Shares ISA") as Array<{ id: number }>;
    const isa = accounts[0]!.id;
    const response = await page(`?id=${isa}`);
    expect(response.status).toBe(200);
    const data = (await response.json()) as PageData;
    expect(data.heading).toBe("Ellie Stocks and Shares ISA");
    expect(data.view?.included).toEqual([]);
    expect(data.view?.excluded.map((a) => a.name)).toEqual(["Ellie Stocks and Shares ISA"]);
    expect(data.view?.years).toEqual([]);
    expect(data.analysisHref).toBe(`/clients/analysis?id=${isa}`);
    expect(all.view?.years.length).toBeGreaterThan(0);
  });

  it("refuses an account the client does not see, and a client without Portfolio access", async () => {
    // demo.assets' own accounts (none) and an id no one has: nothing is selected, so nothing is shown
    expect((await thrown(page("?id=999999"))).status).toBe(404);
    expect((await thrown(csv("?id=999999"))).status).toBe(404);
    expect((await thrown(page("", users.assets))).status).toBe(403);
    expect((await thrown(csv("", users.assets))).status).toBe(403);
  });

  it("is the same for the adviser with demo.client in context", async () => {
    const mine = (await (await page("")).json()) as PageData;
    const theirs = (await (await page("", users.adviserWithClient)).json()) as PageData;
    expect(theirs.view).toEqual(mine.view);
  });
});

describe("realised gains CSV", () => {
  it("has one row per matched part, ISO dates and numbers, adding up to each year's totals on the page", async () => {
    const response = await csv("");
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("Content-Disposition")).toMatch(/realised-gains-.*\.csv/);
    const [header, ...rows] = parseCsv(await response.text());
    expect(header).toEqual([
      "Tax year",
      "Date",
      "Account",
      "Security name",
      "Security code",
      "ISIN",
      "Currency",
      "Units",
      "Proceeds",
      "Allowable cost",
      "Gain or loss",
      "Matched with",
      "Bought on",
    ]);
    expect(rows.every((r) => /^\d{4}-\d{2}-\d{2}$/.test(r[1] as string))).toBe(true);
    const data = (await (await page("")).json()) as PageData;
    for (const year of data.view?.years ?? []) {
      const lines = rows.filter((r) => r[0] === year.label);
      // a disposal (date, account, code) nets its parts; gains and losses are disposals'
      const byDisposal = new Map<string, number>();
      for (const r of lines) {
        const key = `${r[1]}|${r[2]}|${r[4]}`;
        byDisposal.set(key, (byDisposal.get(key) ?? 0) + Math.round(Number(r[10]) * 100));
      }
      const gains = [...byDisposal.values()].filter((g) => g > 0).reduce((s, g) => s + g, 0);
      const losses = [...byDisposal.values()].filter((g) => g < 0).reduce((s, g) => s - g, 0);
      const shown = (text: string) => Math.round(Number(text.replace(/[£,]/g, "")) * 100);
      expect(shown(year.totals[0]!.gains), year.label).toBe(gains);
      expect(shown(year.totals[0]!.losses), year.label).toBe(losses);
      expect(byDisposal.size).toBe(year.rows.length);
    }
  });
});
