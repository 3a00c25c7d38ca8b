import { parse } from "csv-parse/sync";
import { describe, expect, it } from "vitest";
import { callLoader, thrown } from "./portal-harness";
import { withSeededPortal } from "./seeded-book";

// Issue 41 (docs/decisions/199-income-received.md): the analysis page's income tab and its CSV
// against a real platform on a fresh seeded database: the page's accounts (decision 107), totals
// that are the rows' sums, the same figures in the file, and who may ask.

const seeded = withSeededPortal();

type Income = {
  state: string;
  yearRule: string;
  periods: Array<{ href: string; text: string; current: boolean }>;
  heading: string;
  total: string;
  byCurrency: Array<{ currency: string; amount: string }>;
  chart: { table: { rows: Array<{ header: string; cells: string[] }> } };
  accounts: Array<{
    name: string;
    total: string;
    holdings: Array<{ name: string; native: string; converted: string }>;
  }>;
  csv: string;
};
type Page = {
  figures: { state: string; income: Income | null; tabs: Array<{ key: string; current: boolean }> } | null;
};

async function analysis(path: string, cookie = seeded.users.client, status = 200): Promise<Page> {
  const route = await import("~/routes/clients.analysis/route");
  const response = await callLoader(route, path, cookie);
  expect(response.status, path).toBe(status);
  return ((await response.json()) as { page: Page }).page;
}
async function download(search: string, cookie = seeded.users.client) {
  const route = await import("~/routes/clients.analysis_.download.$kind/route");
  return callLoader(route, `/clients/analysis/download/income${search}`, cookie, { kind: "income" });
}
function income(page: Page): Income {
  const view = page.figures?.income;
  if (!view || view.state !== "ok") throw new Error(`expected the income tab, got ${JSON.stringify(page.figures)}`);
  return view;
}
/** '£1,234.56' in pence. */
const pence = (text: string) => Math.round(Number(text.replace(/[^\d.-]/g, "")) * 100);

describe("the income tab (issue 41)", () => {
  it("shows the view's own accounts' income of the last 24 months, its total the sum of the accounts' and of the months'", async () => {
    const page = await analysis("/clients/analysis?tab=income");
    expect(page.figures!.tabs.find((t) => t.current)?.key).toBe("income");
    const view = income(page);
    expect(view.yearRule).toBe("Tax years are the UK's, from 6 April to 5 April.");
    expect(view.periods[0]).toMatchObject({ text: "Last 24 months", current: true });
    // 2024/25 is the platform's current tax year on 14 March 2025
    expect(view.periods[1]).toMatchObject({ text: "2024/25", href: "/clients/analysis?tab=income&taxYear=2024" });
    const names = view.accounts.map((a) => a.name);
    expect(names).toContain("Ellie Stocks and Shares ISA");
    expect(names.filter((n) => /James|Premium Bonds/.test(n))).toEqual([]);
    const accounts = view.accounts.reduce((sum, a) => sum + pence(a.total), 0);
    const holdings = view.accounts.flatMap((a) => a.holdings).reduce((sum, h) => sum + pence(h.converted), 0);
    const months = view.chart.table.rows.reduce((sum, r) => sum + pence(r.cells[0]!), 0);
    expect(view.chart.table.rows).toHaveLength(24);
    expect([accounts, holdings, months]).toEqual([pence(view.total), pence(view.total), pence(view.total)]);
    expect(view.byCurrency.map((c) => c.currency)).toEqual(["GBP", "EUR", "USD"]);
  });

  it("downloads the tax year shown: a row per month and holding, adding up to the page's total", async () => {
    const view = income(await analysis("/clients/analysis?tab=income&taxYear=2023"));
    expect(view.periods.find((p) => p.current)?.text).toBe("2023/24");
    expect(view.heading).toBe("Income received in the 2023/24 tax year, 6th April 2023 to 5th April 2024");
    expect(view.csv).toBe("/clients/analysis/download/income?taxYear=2023");
    const response = await download("?taxYear=2023");
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("Content-Disposition")).toMatch(/income-.*-2023-04-06-to-2024-04-05\.csv/);
    const rows = parse(await response.text(), { bom: true }) as string[][];
    expect(rows[0]![8]).toBe("Income (GBP)");
    expect(rows.slice(1).every((r) => r[0] === "2023/24")).toBe(true);
    expect(rows.slice(1).reduce((sum, r) => sum + Math.round(Number(r[8]) * 100), 0)).toBe(pence(view.total));
  });

  it("refuses someone else's account, on the page and as a file, and a client without the analysis page", async () => {
    const olivia = (
      seeded.book.sql("SELECT id FROM accounts WHERE description = 'Olivia Junior ISA'").get() as { id: number }
    ).id;
    await analysis(`/clients/analysis?tab=income&id=${olivia}`, seeded.users.client, 404);
    expect((await thrown(download(`?id=${olivia}`))).status).toBe(404);
    expect((await thrown(download("", seeded.users.assets))).status).toBe(403);
  });
});
