import { readFile } from "node:fs/promises";
import type { Locator, Page } from "@playwright/test";
import { parse } from "csv-parse/sync";
import { expect, expectAccessible, signIn, test } from "./fixtures";

// Issue 41 (docs/decisions/199-income-received.md): at tax-return time the client reads the income
// she received, by month and by tax year, and finds it equal, to the penny, to the Income rows of the
// transactions tab for the same accounts and dates; she downloads it and prints it; with JavaScript
// on and off (every choice is a link).

const heading = (page: Page, name: string) => page.getByRole("heading", { level: 1, name, exact: true });
const incomePanel = (page: Page) => page.locator("#analysis__tabs_panel-6");
const transactionsPanel = (page: Page) => page.locator("#analysis__tabs_panel-3");
const CURRENCY_OF: Record<string, string> = { "£": "GBP", $: "USD", "€": "EUR" };

/** An amount as the page writes it ('£1,234.56', '$12.30') in minor units, with its currency. */
function amountOf(text: string): { currency: string; minor: number } {
  const match = /(-?)([£$€])([\d,]+)\.(\d{2})/.exec(text);
  if (!match) throw new Error(`no amount in '${text}'`);
  const minor = Number(match[3]!.replace(/,/g, "")) * 100 + Number(match[4]);
  return { currency: CURRENCY_OF[match[2]!]!, minor: match[1] ? -minor : minor };
}

const ddmmyyyy = (date: Date) =>
  `${String(date.getUTCDate()).padStart(2, "0")}-${String(date.getUTCMonth() + 1).padStart(2, "0")}-${date.getUTCFullYear()}`;

/** The last UK tax year that has ended (the year it starts in), and its dates as the range form takes them. */
function lastEndedTaxYear(): { year: number; from: string; to: string; label: string } {
  const now = new Date();
  const y = now.getUTCFullYear();
  const started = now >= new Date(Date.UTC(y, 3, 6)) ? y : y - 1;
  const year = started - 1;
  return {
    year,
    from: `06-04-${year}`,
    to: `05-04-${year + 1}`,
    label: `${year}/${String((year + 1) % 100).padStart(2, "0")}`,
  };
}

type IncomeRow = { month: string; security: string; currency: string; minor: number };

/** Every Income row of the transactions tab for the selection and the custom dates (all its pages). */
async function incomeTransactions(page: Page, id: string | null, from: string, to: string): Promise<IncomeRow[]> {
  const selection = id ? `id=${id}&` : "";
  await page.goto(`/clients/analysis?${selection}tab=transactions&range=custom&from=${from}&to=${to}&pages=20`);
  const panel = transactionsPanel(page);
  // every transaction of the dates is on the page: 'All Loaded'
  await expect(panel.getByRole("button", { name: "All Loaded" })).toBeDisabled();
  const table = panel.getByRole("table", { name: /Transactions of the accounts and dates selected/ });
  const rows = await table
    .locator("tbody tr")
    .evaluateAll((trs) =>
      trs.map((tr) => Array.from(tr.querySelectorAll("th, td")).map((cell) => (cell.textContent ?? "").trim())),
    );
  expect(rows.length).toBeGreaterThan(0);
  return rows
    .filter((cells) => cells[1] === "Income")
    .map(([date, , security, , value]) => {
      const [, month, year] = date!.split("/");
      return { month: `${year}-${month}`, security: security!, ...amountOf(value!) };
    });
}

const sum = (rows: IncomeRow[]) => rows.reduce((total, r) => total + r.minor, 0);
function byCurrency(rows: IncomeRow[]) {
  const sums = new Map<string, number>();
  for (const r of rows) sums.set(r.currency, (sums.get(r.currency) ?? 0) + r.minor);
  return sums;
}

/** The income tab's total and, when shown, what was paid in each currency. */
async function incomeFigures(panel: Locator) {
  const total = amountOf((await panel.locator(".income__total dd").textContent()) ?? "");
  const currencies = new Map<string, number>();
  for (const item of await panel.locator(".income__currencies li").allTextContents()) {
    const [code] = item.split(":");
    currencies.set(code!.trim(), amountOf(item).minor);
  }
  return { total, currencies };
}

async function openIncome(page: Page, path: string) {
  await page.goto(path);
  const panel = incomePanel(page);
  await expect(panel.getByText("Tax years are the UK's, from 6 April to 5 April.")).toBeVisible();
  return panel;
}

test.describe("income received", () => {
  test("by month and by tax year, equal to the transactions tab's Income rows, as a CSV and in print", async ({
    page,
  }, testInfo) => {
    // several full pages of transactions and a PDF: a long journey on a busy machine
    test.slow();
    await signIn(page, "demo.client", { path: "/login?redirectTo=/clients/analysis" });
    await expect(heading(page, "All portfolios")).toBeVisible();
    // the trust's portfolio holds one account, paid in sterling only: its months read as the transactions do
    await page.locator("#analysis__tabs_panel-0").getByRole("link", { name: "Hartley Family Trust" }).click();
    await expect(page).toHaveURL(/id=portfolio-\d+/);
    const id = new URL(page.url()).searchParams.get("id")!;
    expect(id).toMatch(/^portfolio-\d+$/);
    await page
      .getByRole("navigation", { name: "Analysis sections" })
      .getByRole("link", { name: "Income", exact: true })
      .click();
    await expect(page).toHaveURL(/tab=income/);
    let panel = incomePanel(page);
    await expect(panel.getByRole("heading", { name: /^Income received in the last 24 months/ })).toBeVisible();
    await expect(
      panel.getByRole("navigation", { name: "Income received in" }).getByRole("link", { name: "Last 24 months" }),
    ).toHaveAttribute("aria-current", "true");
    await expect(panel.getByRole("img", { name: "Income received by month (GBP)" })).toBeVisible();
    await expectAccessible(page);

    // the last 24 months: each month, the empty ones as £0.00, equal to that month's Income rows
    // the chart's data table (folded away until opened)
    const months = await panel
      .locator("#income-chart table tbody tr")
      .evaluateAll((trs) => trs.map((tr) => Array.from(tr.children).map((c) => (c.textContent ?? "").trim())));
    expect(months).toHaveLength(24);
    const now = new Date();
    const first = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 23, 1));
    const monthsTotal = await incomeFigures(panel);
    const listed = await incomeTransactions(page, id, ddmmyyyy(first), ddmmyyyy(now));
    expect(new Set(listed.map((r) => r.currency))).toEqual(new Set(["GBP"]));
    const shownMonths = months.map(([, amount], i) => {
      const date = new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + i, 1));
      const month = `${date.getUTCFullYear()}-${String(date.getUTCMonth() + 1).padStart(2, "0")}`;
      return [month, amountOf(amount!).minor] as const;
    });
    expect(shownMonths).toEqual(
      shownMonths.map(([month]) => [month, sum(listed.filter((r) => r.month === month))] as const),
    );
    expect(shownMonths.some(([, minor]) => minor === 0)).toBe(true);
    expect(monthsTotal.total).toEqual({ currency: "GBP", minor: sum(listed) });

    // the last tax year that has ended: its total and each holding's, equal to its Income rows
    const taxYear = lastEndedTaxYear();
    panel = await openIncome(page, `/clients/analysis?id=${id}&tab=income`);
    await panel.getByRole("link", { name: taxYear.label, exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`taxYear=${taxYear.year}`));
    await expect(
      panel.getByRole("heading", { name: new RegExp(`^Income received in the ${taxYear.label} tax year`) }),
    ).toBeVisible();
    const yearFigures = await incomeFigures(panel);
    const table = panel.getByRole("table", { name: /^By account and holding/ });
    await expect(table.locator("tfoot")).toContainText(
      (await panel.locator(".income__total dd").textContent())!.trim(),
    );
    const holdings = await table
      .locator("tbody tr:not(.income__account)")
      .evaluateAll((trs) => trs.map((tr) => Array.from(tr.children).map((c) => (c.textContent ?? "").trim())));
    await expectAccessible(page);

    // the CSV holds the same year: a row per month and holding, adding up to the total
    const [file] = await Promise.all([
      page.waitForEvent("download"),
      panel.getByRole("link", { name: "Download CSV" }).click(),
    ]);
    expect(file.suggestedFilename()).toMatch(
      new RegExp(`^income-.*-${taxYear.year}-04-06-to-${taxYear.year + 1}-04-05\\.csv$`),
    );
    const csv = parse(await readFile((await file.path())!), { bom: true }) as string[][];
    expect(csv[0]).toEqual([
      "Tax year",
      "Month",
      "Account",
      "Security name",
      "Security code",
      "ISIN",
      "Currency",
      "Income in its currency",
      "Income (GBP)",
    ]);
    expect(csv.slice(1).every((r) => r[0] === taxYear.label)).toBe(true);
    expect(csv.slice(1).reduce((total, r) => total + Math.round(Number(r[8]) * 100), 0)).toBe(yearFigures.total.minor);

    // print: the year alone, no buttons or other periods, every table whole
    await page.emulateMedia({ media: "print" });
    const periods = panel.getByRole("navigation", { name: "Income received in" }).getByRole("link");
    await expect(periods.filter({ hasText: taxYear.label })).toBeVisible();
    await expect(periods.filter({ hasText: "Last 24 months" })).toBeHidden();
    expect(await page.locator("button:visible, .button:visible").count()).toBe(0);
    const cut = await page
      .locator(".table-wrap")
      .evaluateAll(
        (regions) => regions.filter((r) => r.getClientRects().length > 0 && r.scrollWidth > r.clientWidth + 1).length,
      );
    expect(cut).toBe(0);
    await page.pdf({ path: testInfo.outputPath("income.pdf"), format: "A4", preferCSSPageSize: true });
    await page.emulateMedia({ media: "screen" });

    const yearRows = await incomeTransactions(page, id, taxYear.from, taxYear.to);
    expect(yearRows.length).toBeGreaterThan(0);
    expect(holdings.length).toBeGreaterThan(0);
    expect(yearFigures.total.minor).toBe(sum(yearRows));
    for (const [name, , currency, native, converted] of holdings) {
      const rows = yearRows.filter((r) => r.security === name);
      expect(amountOf(native!), name).toEqual({ currency: currency!, minor: sum(rows) });
      expect(amountOf(converted!).minor, name).toBe(sum(rows));
    }
  });

  test("at 'All portfolios' each currency's income in a tax year equals the transactions tab's, before conversion", async ({
    page,
  }) => {
    test.slow();
    await signIn(page, "demo.client", { path: "/login?redirectTo=/clients/analysis?tab=income" });
    const taxYear = lastEndedTaxYear();
    const panel = await openIncome(page, `/clients/analysis?tab=income&taxYear=${taxYear.year}`);
    await expect(
      panel.getByRole("navigation", { name: "Income received in" }).getByRole("link", { name: taxYear.label }),
    ).toHaveAttribute("aria-current", "true");
    const figures = await incomeFigures(panel);
    // sterling, dollars and euros, each as paid
    expect([...figures.currencies.keys()].sort()).toEqual(["EUR", "GBP", "USD"]);
    // the accounts are the page's own (decision 107): no linked or 'Not managed' one
    const accounts = await panel.locator(".income__account th").allTextContents();
    expect(accounts).toContain("Ellie Stocks and Shares ISA");
    expect(accounts.filter((name) => /James|Premium Bonds/.test(name))).toEqual([]);
    await expectAccessible(page);

    const rows = await incomeTransactions(page, null, taxYear.from, taxYear.to);
    expect(figures.currencies).toEqual(byCurrency(rows));
  });
});
