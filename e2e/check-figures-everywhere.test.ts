import { readFile } from "node:fs/promises";
import type { Download, Locator, Page } from "@playwright/test";
import { parse } from "csv-parse/sync";
import { pdfText } from "../tests/pdf-text";
import { expect, expectAccessible, signIn, test } from "./fixtures";

// Issue "One set of numbers" (decisions 106, 107, 108): a client checks what the portal tells her
// against itself. The home, every tab of the analysis page at 'All portfolios', both CSV files and
// the valuation report's PDF show the same total and the same accounts, to the penny.

const main = (page: Page) => page.getByRole("main");

/** Pence of an amount as shown: '£429,408.26' → 42940826, '-£31.65' → -3165. */
function pence(text: string | null): number {
  const match = /^([-−]?)£([\d,]+)\.(\d{2})$/.exec((text ?? "").trim());
  if (!match) throw new Error(`not an amount in pounds to the penny: '${text}'`);
  const magnitude = Number(match[2]!.replace(/,/g, "")) * 100 + Number(match[3]);
  return match[1] ? -magnitude : magnitude;
}

/** Pence as the overview tiles show them, in whole pounds: 42940826 → '£429,408'. */
const wholePounds = (amount: number) => `£${Math.round(amount / 100).toLocaleString("en-GB")}`;

/** A CSV download's rows, header first. */
async function csvOf(download: Download): Promise<string[][]> {
  return parse(await readFile((await download.path())!), { bom: true }) as string[][];
}

/** The texts of one column of a table's body rows, by the column's header. */
async function column(table: Locator, header: string): Promise<string[]> {
  const headers = (await table.locator("thead th").allTextContents()).map((h) => h.trim());
  const index = headers.findIndex((h) => h.startsWith(header));
  expect(index, `column '${header}' among ${headers.join(" | ")}`).toBeGreaterThanOrEqual(0);
  // rows with a cell under every header (a category's heading row spans the table)
  const rows = await table
    .locator("tbody tr")
    .evaluateAll((trs) => trs.map((tr) => [...tr.children].map((cell) => cell.textContent ?? "")));
  return rows.filter((cells) => cells.length === headers.length).map((cells) => cells[index]!.trim());
}

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

for (const username of ["demo.client", "demo.partner"]) {
  test(`${username} finds the same total and the same accounts on the home, every analysis tab, both CSV files and the report`, async ({
    page,
    javaScript,
  }) => {
    // a long journey: eight views, two downloads and a report run
    test.slow();
    await signIn(page, username);
    await expect(page).toHaveURL(/\/clients\/home$/);
    const tileOf = (name: string) =>
      main(page).locator(".overview-tile").filter({ hasText: name }).locator(".overview-tile__figure");
    const homeValue = (await tileOf("Portfolio value").textContent())!.trim();

    // the analysis page at 'All portfolios': the tile is the home's, the own portfolios add up to it
    await page.goto("/clients/analysis");
    await expect(page.getByRole("heading", { level: 1, name: "All portfolios" })).toBeVisible();
    expect((await tileOf("Portfolio value").textContent())!.trim()).toBe(homeValue);
    const accountsPanel = page.locator("#analysis__tabs_panel-0");
    const ownTable = accountsPanel.getByRole("table", { name: /^(My|All) portfolios/ });
    const ownValues = await column(ownTable, "Current value");
    expect(ownValues.length).toBeGreaterThan(0);
    const total = ownValues.reduce((sum, v) => sum + pence(v), 0);
    expect(wholePounds(total)).toBe(homeValue);
    await expectAccessible(page);

    // investments: every own account with its total, and a grand total equal to the portfolios' sum
    await page.getByRole("link", { name: "Investments", exact: true }).click();
    const holdings = page
      .locator("#analysis__tabs_panel-1")
      .getByRole("table", { name: /Holdings of the accounts selected at/ });
    await expect(holdings).toBeVisible();
    const accountRows = holdings.locator(".investments__row--account");
    const accountNames = (await accountRows.getByRole("rowheader").allTextContents()).map((n) =>
      n.replace(/\s*\((show|hide) holdings\)\s*$/, "").trim(),
    );
    const accountTotals = new Map<string, number>();
    for (const [i, name] of accountNames.entries())
      accountTotals.set(name, pence(await accountRows.nth(i).locator("td.investments__value").textContent()));
    expect(accountNames.length).toBeGreaterThan(0);
    const grandTotal = pence(
      await holdings.locator("tfoot .investments__row--grand-total td.investments__value").textContent(),
    );
    expect(grandTotal).toBe(total);
    expect([...accountTotals.values()].reduce((sum, v) => sum + v, 0)).toBe(total);
    const accounts = new Set(accountNames);
    await expectAccessible(page);

    // the investments CSV: the same accounts, its market values adding up to the same total
    const [investmentsFile] = await Promise.all([
      page.waitForEvent("download"),
      page.locator("#analysis__tabs_panel-1").getByRole("link", { name: "Download CSV" }).click(),
    ]);
    const [investmentsHeader, ...investmentRows] = await csvOf(investmentsFile);
    const accountColumn = investmentsHeader!.indexOf("Account");
    const valueColumn = investmentsHeader!.indexOf("Market value");
    expect(new Set(investmentRows.map((r) => r[accountColumn]))).toEqual(accounts);
    expect(investmentRows.reduce((sum, r) => sum + Math.round(Number(r[valueColumn]) * 100), 0)).toBe(total);
    for (const name of accounts) {
      const rows = investmentRows.filter((r) => r[accountColumn] === name);
      expect(
        rows.reduce((sum, r) => sum + Math.round(Number(r[valueColumn]) * 100), 0),
        name,
      ).toBe(accountTotals.get(name));
    }

    // allocation: the same accounts in every breakdown
    await page.getByRole("link", { name: "Allocation", exact: true }).click();
    const allocation = page.locator("#analysis__tabs_panel-2");
    const breakdowns = allocation.getByRole("table", {
      name: /^Investments by .*, largest first$/,
      includeHidden: true,
    });
    await expect(breakdowns.first()).toBeAttached();
    for (let i = 0; i < (await breakdowns.count()); i++) {
      expect(new Set(await column(breakdowns.nth(i), "Account"))).toEqual(accounts);
    }

    // transactions of the period: only accounts of the view, each amount signed by its direction
    await page.goto("/clients/analysis?tab=transactions&pages=20");
    const transactions = page.locator("#analysis__tabs_panel-3").getByRole("table", { name: /transactions/i });
    await expect(transactions).toBeVisible();
    const listed = new Set(await column(transactions, "Account"));
    expect(listed.size).toBeGreaterThan(0);
    for (const name of listed) expect(accounts.has(name), `${name} is an account of the view`).toBe(true);
    await expectAccessible(page);
    const [transactionsFile] = await Promise.all([
      page.waitForEvent("download"),
      page.locator("#analysis__tabs_panel-3").getByRole("link", { name: "Download CSV" }).click(),
    ]);
    const [transactionsHeader, ...transactionRows] = await csvOf(transactionsFile);
    const csvAccounts = new Set(transactionRows.map((r) => r[transactionsHeader!.indexOf("Account")]));
    expect(csvAccounts).toEqual(listed);

    // the valuation report as at today: the same accounts, each with the investments tab's total
    await page.getByRole("navigation", { name: "Main menu" }).getByRole("link", { name: "Valuation report" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Valuation report" })).toBeVisible();
    const chooser = main(page).getByLabel("Report", { exact: true });
    if (await chooser.count()) {
      await chooser.selectOption({ label: "Portfolio valuation" });
      if (javaScript === "off") await main(page).getByRole("button", { name: "Choose report" }).click();
    }
    await main(page).getByRole("button", { name: "Run report" }).click();
    await expect(main(page).getByText("Your report is ready.")).toBeVisible({ timeout: 30_000 });
    const [report] = await Promise.all([
      page.waitForEvent("download"),
      main(page).getByRole("link", { name: "Download report.pdf" }).click(),
    ]);
    // one line of words: a long name may wrap in its table cell
    const text = (await pdfText(await readFile((await report.path())!))).text.replace(/\s+/g, " ");
    const grand = /Grand total of (\d+) accounts?\s*(£[\d,]+\.\d{2})/.exec(text);
    expect(grand, text.slice(0, 2000)).toBeTruthy();
    expect(Number(grand![1])).toBe(accounts.size);
    expect(pence(grand![2]!)).toBe(total);
    for (const [name, value] of accountTotals) {
      const line = new RegExp(`Total of ${escaped(name)}\\s*(-?£[\\d,]+\\.\\d{2})`).exec(text);
      expect(line, `the report's total of ${name} in: ${text.match(/Total of .{0,80}/g)?.join(" / ")}`).toBeTruthy();
      expect(pence(line![1]!), name).toBe(value);
    }
  });
}
