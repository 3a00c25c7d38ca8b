import type { Page } from "@playwright/test";
import { expect, expectAccessible, signIn, test } from "./fixtures";

// Decision 108: a client reads which way each transaction's money moved, and checks the
// investments table's totals against its rows, on a laptop screen and on a phone, with JavaScript
// on and off.

const transactionsPanel = (page: Page) => page.locator("#analysis__tabs_panel-3");
const investmentsPanel = (page: Page) => page.locator("#analysis__tabs_panel-1");
/** A figure as shown ('-£1,234.56'), in pennies. */
const pennies = (text: string) => Number(text.replace(/[^0-9-]/g, ""));

test.describe("reading transactions and investment totals", () => {
  test("sees each transaction's type, and a withdrawal and a fee with a minus sign and words for a screen reader", async ({
    page,
  }) => {
    // every transaction of the portfolio on one page: a long render on a busy machine
    test.slow();
    await signIn(page, "demo.client", { path: "/login?redirectTo=/clients/analysis?range=SI" });
    await page.locator("#analysis__tabs_panel-0").getByRole("link", { name: "Ellie's portfolio" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Ellie's portfolio" })).toBeVisible();
    await page.getByRole("link", { name: "Transactions", exact: true }).click();
    await expect(page).toHaveURL(/id=portfolio-\d+.*tab=transactions/);
    const table = transactionsPanel(page).getByRole("table", {
      name: /Transactions of the accounts and dates selected/,
    });
    await expect(table.getByRole("columnheader")).toHaveText(["Trade date", "Type", "Security", "Account", "Value"]);
    await expect(table.locator("tbody tr")).toHaveCount(50);
    await expectAccessible(page);

    // everything at once (the page's most, 20 pages), so the earliest deposits and the withdrawal are on it
    await page.goto(`${page.url()}&pages=20`);
    const rows = table.locator("tbody tr");
    await expect(transactionsPanel(page).getByRole("button", { name: "All Loaded" })).toBeDisabled();
    expect(await rows.count()).toBeGreaterThan(50);

    const row = (type: string) => rows.filter({ has: page.getByRole("cell", { name: type, exact: true }) }).first();
    const value = (type: string) => row(type).locator("td.numeric");
    // money out: a minus sign, and 'paid out' for a screen reader; money in: no sign, 'received'
    for (const type of ["Withdrawal", "Fee", "Purchase"]) {
      await expect(value(type), type).toHaveText(/^-[£$€][\d,]+\.\d{2} paid out$/);
      await expect(value(type).locator(".visually-hidden"), type).toHaveText(" paid out");
    }
    for (const type of ["Deposit", "Income"])
      await expect(value(type), type).toHaveText(/^[£$€][\d,]+\.\d{2} received$/);

    // a fee's details: its value, paid out, and no Fees repeating it
    const feeValue = await value("Fee").textContent();
    await row("Fee").getByRole("link").click();
    await expect(page).toHaveURL(/tx=\d+/);
    const details = transactionsPanel(page).getByRole("region", { name: "Details" });
    await expect(details.locator("dt", { hasText: "Type" }).locator("+ dd")).toHaveText("Fee");
    await expect(details.locator("dt", { hasText: /^Value$/ }).locator("+ dd")).toHaveText(feeValue ?? "");
    await expect(details.getByText("Fees", { exact: true })).toHaveCount(0);
  });

  test("shows the type and sign in a phone's rows too", async ({ page }) => {
    await page.setViewportSize({ width: 320, height: 740 });
    await signIn(page, "demo.client", { path: "/login?redirectTo=/clients/analysis?tab=transactions&range=SI" });
    const item = transactionsPanel(page)
      .locator(".transactions__item")
      .filter({ has: page.locator(".transactions__item-type", { hasText: /^Fee$/ }) })
      .first();
    await expect(item.locator(".transactions__item-type")).toHaveText("Fee");
    await expect(item.locator(".transactions__item-value")).toHaveText(/^-[£$€][\d,]+\.\d{2} paid out$/);
    await item.locator("summary").click();
    await expect(item.locator("dt", { hasText: /^Value$/ }).locator("+ dd")).toHaveText(/^-[£$€]/);
  });

  test("finds a total per account and a grand total that add up, and a note on the converted book costs", async ({
    page,
  }) => {
    await signIn(page, "demo.client", { path: "/login?redirectTo=/clients/analysis?tab=investments" });
    const table = investmentsPanel(page).getByRole("table", { name: /Holdings of the accounts selected at/ });
    await expect(table).toBeVisible();
    const accountTotals = table.locator(".investments__row--total");
    const accounts = await table.locator(".investments__row--account").count();
    expect(accounts).toBeGreaterThan(1);
    await expect(accountTotals).toHaveCount(accounts);
    // each account's total market value is the sum of its holdings as shown (the fifth figure)
    for (let i = 0; i < accounts; i++) {
      const body = table.locator("tbody.investments__account").nth(i);
      const values = await body.locator(".investments__row--position td.investments__value").allTextContents();
      const total = await body.locator(".investments__row--total td.investments__value").textContent();
      expect(pennies(total ?? ""), `account ${i + 1}`).toBe(values.reduce((sum, v) => sum + pennies(v), 0));
    }
    const grand = table.locator("tfoot .investments__row--grand-total");
    await expect(grand.getByRole("rowheader")).toHaveText("Total");
    const totals = await accountTotals.locator("td.investments__value").allTextContents();
    expect(pennies((await grand.locator("td.investments__value").textContent()) ?? "")).toBe(
      totals.reduce((sum, v) => sum + pennies(v), 0),
    );
    // a dollar holding's book cost is not available in pounds: the note says how to see it
    await expect(grand.locator("td.investments__cost")).toContainText("Not available");
    const notes = investmentsPanel(page).getByRole("region", { name: "About the totals" });
    await notes.getByRole("link", { name: "Show in original currency" }).click();
    await expect(page).toHaveURL(/show=original/);
    await expect(investmentsPanel(page).getByRole("link", { name: "Original currency", exact: true })).toHaveAttribute(
      "aria-current",
      "true",
    );
    await expectAccessible(page);
  });

  for (const tab of ["investments", "transactions"] as const) {
    test(`fits the ${tab} table on a 1366 px screen without a horizontal scroll bar`, async ({ page }) => {
      await page.setViewportSize({ width: 1366, height: 768 });
      await signIn(page, "demo.client", {
        path: `/login?redirectTo=/clients/analysis?tab=${tab}&expand=all&show=original`,
      });
      const region = page.getByRole("region", {
        name:
          tab === "investments"
            ? /Holdings of the accounts selected at/
            : /Transactions of the accounts and dates selected/,
      });
      await expect(region).toBeVisible();
      const [scrollWidth, clientWidth] = await region.evaluate((el) => [el.scrollWidth, el.clientWidth]);
      expect(scrollWidth).toBeLessThanOrEqual(clientWidth);
      await expectAccessible(page);
    });
  }

  test("keeps the investments table usable on a 320 px phone: the holdings and totals readable, the table scrolling in its own region", async ({
    page,
  }) => {
    await page.setViewportSize({ width: 320, height: 740 });
    await signIn(page, "demo.client", { path: "/login?redirectTo=/clients/analysis?tab=investments" });
    const region = page.getByRole("region", { name: /Holdings of the accounts selected at/ });
    await expect(region.locator("tfoot").getByRole("rowheader", { name: "Total" })).toBeVisible();
    // the page itself does not scroll sideways: only the table's region may
    const [pageScroll, pageWidth] = await page.evaluate(() => [
      document.documentElement.scrollWidth,
      document.documentElement.clientWidth,
    ]);
    expect(pageScroll).toBeLessThanOrEqual(pageWidth);
    await expect(region).toHaveAttribute("tabindex", "0");
  });
});
