import type { Page } from "@playwright/test";
import { expect, expectAccessible, signIn, test } from "./fixtures";

// spec 001 §2.5: the balance sheet, with JavaScript on and off. Every state is a URL.

const tab = (page: Page, name: string) =>
  page.getByRole("navigation", { name: "Asset types" }).getByRole("link", { name, exact: true });
const tabTitles = (page: Page) =>
  page.getByRole("navigation", { name: "Asset types" }).getByRole("link").allTextContents();
const view = (page: Page, name: string) =>
  page.getByRole("navigation", { name: "Your wealth:" }).getByRole("link", { name, exact: true });

test.describe("the balance sheet", () => {
  test("a client opens it from a home asset card, changes view, tab and family member", async ({ page }) => {
    // four pages, each checked with axe
    test.slow();
    await signIn(page, "demo.client");
    await expect(page).toHaveURL(/\/clients\/home$/);
    await page.locator("#other-assets").getByRole("link", { name: "4 pensions" }).click();

    // the card's tab, in the site's default view (Everything)
    await expect(page).toHaveURL(/\/clients\/balance-sheet\?id=1&asset=1$/);
    await expect(page.getByRole("heading", { level: 1, name: "Balance Sheet" })).toBeVisible();
    await expect(view(page, "Everything")).toHaveAttribute("aria-current", "true");
    expect(await tabTitles(page)).toEqual(["5 Investments", "4 Pensions", "1 Liability"]);
    await expect(tab(page, "4 Pensions")).toHaveAttribute("aria-current", "page");
    await expect(tab(page, "5 Investments")).not.toHaveAttribute("aria-current", /.*/);
    // her SIPP account is the managed pension; the pensions held elsewhere are not managed
    const pensions = page.getByRole("table", { name: "Managed pensions", exact: true });
    await expect(pensions.getByRole("rowheader", { name: /Ellie Self-Invested Personal Pension/ })).toBeVisible();
    await expect(pensions.getByRole("columnheader", { name: "Value owned and percent owned" })).toBeVisible();
    await expect(pensions).toContainText(/£\d{1,3}(,\d{3})*\.\d{2}/);
    await expect(pensions).not.toContainText("Aviva");
    const heldAway = page.getByRole("table", { name: "Non-managed pensions" });
    await expect(heldAway.getByRole("rowheader", { name: /Aviva workplace pension/ })).toBeVisible();
    await expect(heldAway.getByRole("rowheader", { name: /Fundsmith Equity \(HL SIPP\)/ })).toBeVisible();
    await expect(page.getByRole("heading", { name: "Basis of valuation" })).toBeVisible();
    await expectAccessible(page);

    // the investments: her ISA, joint and trust accounts managed, the cottage not
    await tab(page, "5 Investments").click();
    await expect(page).toHaveURL(/asset=0/);
    await expect(tab(page, "5 Investments")).toHaveAttribute("aria-current", "page");
    const managed = page.getByRole("table", { name: "Managed investments", exact: true });
    await expect(managed.getByRole("rowheader", { name: /Ellie Stocks and Shares ISA/ })).toBeVisible();
    await expect(managed.getByRole("row", { name: /Joint General Investment Account/ })).toContainText("50.00%");
    await expect(page.getByRole("table", { name: "Non-managed investments" })).toContainText(
      "Holiday cottage, Padstow",
    );
    await expectAccessible(page);

    // Managed: her portfolio accounts only
    await view(page, "Managed").click();
    await expect(page).toHaveURL(/view=managed/);
    await expect(view(page, "Managed")).toHaveAttribute("aria-current", "true");
    expect(await tabTitles(page)).toEqual(["3 Investments", "1 Pension"]);
    await expect(tab(page, "3 Investments")).toHaveAttribute("aria-current", "page");
    await expect(page.getByRole("table", { name: "Non-managed investments" })).toHaveCount(0);
    await expectAccessible(page);
  });

  test("a client reads what she holds elsewhere, then her partner's balance sheet", async ({ page }) => {
    test.slow();
    await signIn(page, "demo.client", { path: "/login?redirectTo=/clients/balance-sheet" });
    await expect(page).toHaveURL(/\/clients\/balance-sheet$/);

    // Non-managed: what she holds elsewhere, and the liabilities' columns
    await view(page, "Non-managed").click();
    await expect(page).toHaveURL(/view=non-managed/);
    expect(await tabTitles(page)).toEqual(["2 Investments", "3 Pensions", "1 Liability"]);
    await tab(page, "1 Liability").click();
    await expect(page).toHaveURL(/asset=3/);
    const liabilities = page.getByRole("table", { name: "Non-managed liabilities" });
    for (const column of [
      "Description and owners",
      "Type and provider",
      "Interest rate (pa) and policy number",
      "Outstanding balance and valuation date",
      "Value owned and percent owned",
    ]) {
      await expect(liabilities.getByRole("columnheader", { name: column })).toBeVisible();
    }
    await expect(liabilities).toContainText("Mortgage, Kensington Park Road");
    await expect(liabilities).toContainText("4.49%");
    await expect(liabilities.locator("tfoot")).toContainText(/-£\d/);
    await expectAccessible(page);

    // her partner, in Everything, on the liabilities
    await view(page, "Everything").click();
    await expect(page).toHaveURL(/view=everything/);
    await expect(tab(page, "1 Liability")).toHaveAttribute("aria-current", "page");
    await expect(page.getByText("No managed assets data")).toBeVisible();
    await page.getByLabel("Show the assets of").selectOption({ label: "James Hartley" });
    await page.getByRole("button", { name: "Show", exact: true }).click();
    await expect(page).toHaveURL(/id=2/);
    await expect(page.getByLabel("Show the assets of")).toHaveValue("2");
    expect(await tabTitles(page)).toEqual(["5 Investments", "1 Pension", "1 Annuity", "2 Liabilities"]);
    await expect(tab(page, "2 Liabilities")).toHaveAttribute("aria-current", "page");
    await expect(page.getByRole("table", { name: "Non-managed liabilities" })).toContainText("Car finance");
    await expectAccessible(page);

    // his accounts, the joint and trust ones at his half
    await tab(page, "5 Investments").click();
    const his = page.getByRole("table", { name: "Managed investments", exact: true });
    await expect(his.getByRole("rowheader", { name: /James US dollar account/ })).toBeVisible();
    await expect(his.getByRole("row", { name: /Hartley Family Trust account/ })).toContainText("50.00%");

    // bookmarkable: the same view after a reload
    const bookmark = page.url();
    await page.goto(bookmark);
    await expect(tab(page, "5 Investments")).toHaveAttribute("aria-current", "page");

    // a member outside her family falls back to herself
    await page.goto("/clients/balance-sheet?id=4");
    await expect(page.getByLabel("Show the assets of")).toHaveValue("1");
    await expect(page.getByText("Marcus Bell")).toHaveCount(0);
  });

  test("her managed figures name her ISA and SIPP with the analysis page's values", async ({ page }) => {
    // the analysis page: her portfolio's accounts and their values
    await signIn(page, "demo.client", { path: "/login?redirectTo=/clients/analysis" });
    await expect(page).toHaveURL(/\/clients\/analysis$/);
    await page.locator("#analysis__tabs_panel-0").getByRole("link", { name: "Ellie's portfolio" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Ellie's portfolio", exact: true })).toBeVisible();
    await page.getByRole("link", { name: "Accounts", exact: true }).click();
    const accounts = page.locator("#analysis__tabs_panel-0").getByRole("table", { name: "All accounts" });
    const valueOn = async (name: string) =>
      (await accounts
        .getByRole("row", { name: new RegExp(name) })
        .getByRole("cell")
        .first()
        .textContent())!.trim();
    const isa = await valueOn("Ellie Stocks and Shares ISA");
    const sipp = await valueOn("Ellie Self-Invested Personal Pension");
    expect(isa).toMatch(/^£\d{1,3}(,\d{3})*\.\d{2}$/);

    // the balance sheet's managed figures: the same names and values
    await page.getByRole("link", { name: "Balance sheet", exact: true }).click();
    await view(page, "Managed").click();
    await expect(page).toHaveURL(/view=managed/);
    await expect(
      page
        .getByRole("table", { name: "Managed investments", exact: true })
        .getByRole("row", { name: /Ellie Stocks and Shares ISA/ }),
    ).toContainText(isa);
    await tab(page, "1 Pension").click();
    const pensions = page.getByRole("table", { name: "Managed pensions", exact: true });
    await expect(pensions.getByRole("row", { name: /Ellie Self-Invested Personal Pension/ })).toContainText(sipp);
    await expect(pensions.locator("tfoot")).toContainText(sipp);
    await expectAccessible(page);
  });

  test("the main menu offers it to a client with portfolio access", async ({ page }) => {
    await signIn(page, "demo.client");
    await page.getByRole("link", { name: "Balance sheet", exact: true }).click();
    await expect(page).toHaveURL(/\/clients\/balance-sheet$/);
    await expect(page.getByRole("heading", { level: 1, name: "Balance Sheet" })).toBeVisible();
    await expect(tab(page, "5 Investments")).toHaveAttribute("aria-current", "page");
  });

  test("a client with assets access sees it, and can show original currencies", async ({ page }) => {
    await signIn(page, "demo.assets");
    await expect(page).toHaveURL(/\/clients\/home$/);
    await page.locator("#other-assets").getByRole("link", { name: "Other assets" }).click();
    await expect(page).toHaveURL(/\/clients\/balance-sheet\?id=4$/);
    expect(await tabTitles(page)).toEqual(["3 Investments", "4 Pensions", "1 Annuity", "1 Liability"]);
    // spec 001 §2.5: a currency dropdown, which changes the page on its button only (WCAG 3.2.2)
    const currency = page.getByLabel("Currency:");
    await expect(currency).toHaveValue("report");
    await expect(currency.locator("option:checked")).toHaveText("Convert to GBP");
    const us = page.getByRole("row", { name: /US brokerage account/ });
    await expect(us).toContainText("£");
    await expectAccessible(page);

    await currency.selectOption({ label: "Convert to original currencies" });
    await expect(page).toHaveURL(/\/clients\/balance-sheet\?id=4$/);
    await expect(us).toContainText("£");
    await page.getByRole("button", { name: "Change currency" }).click();
    // the member, view and tab are kept
    await expect(page).toHaveURL(/\?id=4&view=[a-z-]+&asset=0&currency=plan$/);
    await expect(page.getByRole("row", { name: /US brokerage account/ })).toContainText("$41,200.00");
    await expect(page.getByLabel("Currency:")).toHaveValue("plan");
    await expectAccessible(page);
  });

  test("a messages-only client is denied it @once", async ({ page }) => {
    await signIn(page, "demo.messages");
    await expect(page).toHaveURL(/\/clients\/documents-and-messages$/);
    await expect(page.getByRole("link", { name: "Balance sheet", exact: true })).toHaveCount(0);
    const response = await page.goto("/clients/balance-sheet");
    expect(response?.status()).toBe(403);
    await expect(page.getByRole("heading", { level: 1, name: "Access Denied" })).toBeVisible();
  });
});
