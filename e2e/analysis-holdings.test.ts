import { readFile } from "node:fs/promises";
import type { Download, Locator, Page } from "@playwright/test";
import { parse } from "csv-parse/sync";
import { expect, expectAccessible, signIn, test } from "./fixtures";

// spec 001 §2.3: the analysis page's investments and allocation tabs, and the CSV downloads of the
// investments and the transactions, with JavaScript on and off.

const heading = (page: Page, name: string) => page.getByRole("heading", { level: 1, name, exact: true });
const investments = (page: Page) => page.locator("#analysis__tabs_panel-1");
const holdingsTable = (page: Page) =>
  investments(page).getByRole("table", { name: /Holdings of the accounts selected at/ });
const row = (table: Locator, name: string | RegExp) =>
  table.getByRole("row").filter({ has: table.page().getByRole("rowheader", { name }) });
/** The number a cell shows, e.g. '£1,234.56' → 1234.56. */
const amountOf = (text: string | null) => Number((text ?? "").replace(/[^0-9.-]/g, ""));

async function csvOf(download: Download): Promise<string[][]> {
  const path = await download.path();
  return parse(await readFile(path), { bom: true }) as string[][];
}

test.describe("the analysis page's holdings", () => {
  test("expands and sorts the investments, switches currency and opens the glossary", async ({ page, javaScript }) => {
    // a long journey: a dozen views, each a page of its own without JavaScript
    test.slow();
    await signIn(page, "demo.client", { path: "/login?redirectTo=/clients/analysis" });
    await page.locator("#analysis__tabs_panel-0").getByRole("link", { name: "Ellie's portfolio" }).click();
    await expect(heading(page, "Ellie's portfolio")).toBeVisible();
    // the drill-down lands on the investments (spec 001 §2.3)
    await expect(page.getByRole("link", { name: "Investments", exact: true })).toHaveAttribute("aria-current", "true");
    const table = holdingsTable(page);
    await expect(table).toBeVisible();

    // accounts open, their holdings shown, the purchases of each holding closed (ExpandAllPrimaryItem)
    await expect(row(table, /^Ellie Stocks and Shares ISA/)).toBeVisible();
    await expect(row(table, /^Apple Inc\./)).toBeVisible();
    await expect(row(table, /^Johnson & Johnson/)).toBeVisible();
    await expect(table.getByRole("rowheader", { name: /^Acquired/ })).toHaveCount(0);
    await expect(table.getByRole("columnheader", { name: /Security name/ })).toHaveAttribute("aria-sort", "ascending");
    await expectAccessible(page);

    // Expand all shows the purchases of every holding; Collapse all hides every holding
    await investments(page).getByRole("link", { name: "Expand all" }).click();
    await expect(row(table, /^Vanguard LifeStrategy 60% Equity Fund/)).toBeVisible();
    await expect(page).toHaveURL(/expand=all/);
    await expect(table.getByRole("rowheader", { name: /^Acquired/ }).first()).toBeVisible();
    expect(await table.getByRole("rowheader", { name: /^Acquired/ }).count()).toBeGreaterThan(2);
    await investments(page).getByRole("link", { name: "Collapse all" }).click();
    await expect(row(table, /^Apple Inc\./)).toHaveCount(0);
    await expect(row(table, /^Ellie Stocks and Shares ISA/)).toBeVisible();

    // one account at a time: a button that toggles with JavaScript, a link without
    const toggle = table.getByRole(javaScript === "on" ? "button" : "link", {
      name: /^Ellie Stocks and Shares ISA \(show holdings\)/,
    });
    if (javaScript === "on") await expect(toggle).toHaveAttribute("aria-expanded", "false");
    await toggle.click();
    await expect(row(table, /^Apple Inc\./)).toBeVisible();
    await expect(row(table, /^Johnson & Johnson/)).toHaveCount(0);
    await expect(page).toHaveURL(/expand=none&open=a\d+/);
    if (javaScript === "on")
      await expect(
        table.getByRole("button", { name: /^Ellie Stocks and Shares ISA \(hide holdings\)/ }),
      ).toHaveAttribute("aria-expanded", "true");

    // sort by market value, then largest first
    await investments(page).getByRole("link", { name: "Expand all" }).click();
    await table
      .getByRole("columnheader", { name: /Market value/ })
      .getByRole("link")
      .click();
    await expect(table.getByRole("columnheader", { name: /Market value/ })).toHaveAttribute("aria-sort", "ascending");
    await table
      .getByRole("columnheader", { name: /Market value/ })
      .getByRole("link")
      .click();
    await expect(table.getByRole("columnheader", { name: /Market value/ })).toHaveAttribute("aria-sort", "descending");
    const isaValues = await table
      .locator("tbody", { has: page.getByRole("rowheader", { name: /^Ellie Stocks and Shares ISA/ }) })
      .locator(".investments__row--position td.investments__value")
      .allTextContents();
    const values = isaValues.map(amountOf);
    expect(values.length).toBeGreaterThan(3);
    expect(values).toEqual([...values].sort((a, b) => b - a));

    // the original currency: dollars for the dollar holdings, and value no longer sortable (spec 001 §2.3)
    await investments(page).getByRole("link", { name: "Original currency", exact: true }).click();
    await expect(investments(page).getByRole("link", { name: "Original currency", exact: true })).toHaveAttribute(
      "aria-current",
      "true",
    );
    await expect(row(table, /^Apple Inc\./)).toContainText("USD");
    await expect(row(table, /^Apple Inc\./)).toContainText("$");
    await expect(table.getByRole("columnheader", { name: /Market value/ }).getByRole("link")).toHaveCount(0);
    // spec 001 §2.3: a dropdown per account; choosing changes nothing until Apply (WCAG 3.2.2)
    const convert = investments(page).getByLabel("Currency of the holdings in Ellie Stocks and Shares ISA");
    await expect(convert.locator("option:checked")).toHaveText("Convert to original currency");
    const before = page.url();
    await convert.selectOption({ label: "Convert to account currency" });
    expect(page.url()).toBe(before);
    await expect(row(table, /^Apple Inc\./)).not.toContainText("Conversion rate");
    await investments(page).getByRole("button", { name: "Apply (Ellie Stocks and Shares ISA)" }).click();
    await expect(row(table, /^Apple Inc\./)).toContainText(/Conversion rate: 1 USD = \d\.\d{4} GBP/);
    // the rest of the view is kept: the tab, the original currency and the sort
    await expect(page).toHaveURL(/tab=investments/);
    await expect(page).toHaveURL(/show=original/);
    await expect(page).toHaveURL(/sort=value/);
    await expect(
      investments(page).getByLabel("Currency of the holdings in Ellie Stocks and Shares ISA").locator("option:checked"),
    ).toHaveText("Convert to account currency");
    await expectAccessible(page);

    // 'What does this mean?': a dialog with JavaScript, a section without
    if (javaScript === "on") {
      await investments(page).getByRole("button", { name: "What does this mean?" }).click();
      const dialog = page.getByRole("dialog", { name: "What does this mean?" });
      await expect(dialog).toContainText("Book cost");
      await expect(dialog).toContainText("Gross % Yield");
      await expect(dialog).toContainText("Holdings in several currencies");
      await expectAccessible(page);
      await dialog.getByRole("button", { name: "Close" }).click();
      await expect(page.getByRole("dialog")).toHaveCount(0);
    } else {
      await investments(page).locator("summary", { hasText: "What does this mean?" }).click();
      await expect(investments(page).locator(".glossary")).toContainText("Unrealised gain");
      await expect(investments(page).locator(".glossary")).toContainText("Gross annual income");
    }
  });

  test("shows an empty security name as 'INVALID DATA'", async ({ page }) => {
    await signIn(page, "demo.client", { path: "/login?redirectTo=/clients/analysis" });
    await page.locator("#analysis__tabs_panel-0").getByRole("link", { name: "Joint portfolio" }).click();
    await expect(heading(page, "Joint portfolio")).toBeVisible();
    await expect(holdingsTable(page).getByRole("rowheader", { name: /^INVALID DATA/ })).toBeVisible();
  });

  test("sees three allocation charts with tables whose percentages add up to 100", async ({ page }) => {
    await signIn(page, "demo.client", { path: "/login?redirectTo=/clients/analysis" });
    await page.getByRole("link", { name: "Allocation", exact: true }).click();
    await expect(page).toHaveURL(/tab=allocation/);
    const panel = page.locator("#analysis__tabs_panel-2");
    // several types: each panel starts collapsed
    for (const title of ["Asset class", "Sector", "Geographic region"]) {
      // the heading stands outside the panel's summary (decision 117)
      const section = panel.getByRole("region", { name: title, exact: true });
      await expect(section.getByRole("heading", { level: 3, name: title, exact: true })).toBeVisible();
      const details = section.locator("details.allocation-panel__body");
      await expect(details).not.toHaveAttribute("open", "");
      await details.locator("summary").first().click();
      const figure = details.locator("figure");
      await expect(figure.getByRole("img", { name: new RegExp(`^${title} allocation at`) })).toBeVisible();
      await figure.getByText("Show the chart's data as a table").click();
      const percents = await figure.getByRole("table").locator("tbody tr td:last-child").allTextContents();
      expect(percents.length, title).toBeGreaterThan(1);
      expect(
        percents.map((p) => (p.startsWith("<") ? 0 : Number(p.replace("%", "")))).reduce((a, b) => a + b, 0),
        title,
      ).toBe(100);
      await details
        .locator("details.allocation-panel__investments > summary", {
          hasText: `Investments by ${title.toLowerCase()}`,
        })
        .click();
      await expect(
        details.getByRole("table", { name: `Investments by ${title.toLowerCase()}, largest first` }),
      ).toContainText("Ellie Stocks and Shares ISA");
    }
    await expectAccessible(page);
  });

  test("downloads the investments and the transactions as CSV files", async ({ page }) => {
    await signIn(page, "demo.client", { path: "/login?redirectTo=/clients/analysis" });
    await page.locator("#analysis__tabs_panel-0").getByRole("link", { name: "Ellie's portfolio" }).click();
    await expect(holdingsTable(page)).toBeVisible();
    const shown = await holdingsTable(page).locator(".investments__row--position").count();

    const [investmentsFile] = await Promise.all([
      page.waitForEvent("download"),
      investments(page).getByRole("link", { name: "Download CSV" }).click(),
    ]);
    expect(investmentsFile.suggestedFilename()).toMatch(/^investments-ellie-hartley-\d{4}-\d{2}-\d{2}\.csv$/);
    const holdings = await csvOf(investmentsFile);
    expect(holdings[0]!.slice(0, 4)).toEqual(["Account", "Security name", "Security code", "ISIN"]);
    expect(holdings.length - 1).toBe(shown);
    expect(holdings.some((r) => r[1] === "Apple Inc." && r[4] === "GBP")).toBe(true);

    await page.getByRole("link", { name: "Transactions", exact: true }).click();
    const transactions = page.locator("#analysis__tabs_panel-3");
    await expect(transactions.getByRole("table")).toBeVisible();
    const [transactionsFile] = await Promise.all([
      page.waitForEvent("download"),
      transactions.getByRole("link", { name: "Download CSV" }).click(),
    ]);
    expect(transactionsFile.suggestedFilename()).toMatch(
      /^transactions-ellie-hartley-\d{4}-\d{2}-\d{2}-to-\d{4}-\d{2}-\d{2}\.csv$/,
    );
    const rows = await csvOf(transactionsFile);
    expect(rows[0]!.slice(0, 4)).toEqual(["Trade date", "Settlement date", "Account", "Security name"]);
    expect(rows.length).toBeGreaterThan(10);
    expect(rows.slice(1).every((r) => /^\d{4}-\d{2}-\d{2}$/.test(r[0]!))).toBe(true);
  });
});
