import type { Page } from "@playwright/test";
import { expect, expectAccessible, signIn, test } from "./fixtures";

// spec 000 §2 "Main bar" on a phone: every entry on screen, and the mobile Back button that steps
// back through the analysis page's account filters (docs/decisions/092).

const PHONE = { width: 375, height: 740 };
const mainMenu = (page: Page) => page.getByRole("navigation", { name: "Main menu" });
const back = (page: Page) => page.getByRole("link", { name: "Back", exact: true });
const heading = (page: Page, name: string) => page.getByRole("heading", { level: 1, name, exact: true });

test.describe("the main bar on a phone", () => {
  test.use({ viewport: PHONE });

  test("shows every entry whole on a 375 px screen, and no Back on the home page", async ({ page }) => {
    await signIn(page, "demo.client");
    await expect(page).toHaveURL(/\/clients\/home$/);
    const links = mainMenu(page).getByRole("link");
    await expect(links).toHaveText([
      "Home",
      "Analysis",
      "Balance sheet",
      /^Messages and documents/,
      "Valuation report",
    ]);
    for (const link of await links.all()) {
      const box = (await link.boundingBox())!;
      expect(box.x, await link.innerText()).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width, await link.innerText()).toBeLessThanOrEqual(PHONE.width);
    }
    // nothing scrolls sideways
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await expect(back(page)).toHaveCount(0);
    await expectAccessible(page);
    await mainMenu(page)
      .getByRole("link", { name: /^Messages and documents/ })
      .click();
    await expect(page).toHaveURL(/\/clients\/documents-and-messages$/);
  });

  test("Back leads from another page to the clients home", async ({ page }) => {
    await signIn(page, "demo.client", { path: "/login?redirectTo=/clients/balance-sheet" });
    await expect(page).toHaveURL(/\/clients\/balance-sheet$/);
    await expect(back(page)).toBeVisible();
    await expectAccessible(page);
    await back(page).click();
    await expect(page).toHaveURL(/\/clients\/home$/);
  });

  test("a client who sees only messages and documents goes Back there, not to Access Denied", async ({ page }) => {
    await signIn(page, "demo.messages", { path: "/login?redirectTo=/clients/adviser-details" });
    await expect(page).toHaveURL(/\/clients\/adviser-details$/);
    await expect(back(page)).toHaveAttribute("href", "/clients/documents-and-messages");
    await back(page).click();
    await expect(page).toHaveURL(/\/clients\/documents-and-messages$/);
    await expect(heading(page, "Messages and documents")).toBeVisible();
    // the start page itself has no Back
    await expect(back(page)).toHaveCount(0);
    await expectAccessible(page);
  });

  test("Back steps up through the analysis page's account filters", async ({ page, javaScript }) => {
    await signIn(page, "demo.client", { path: "/login?redirectTo=/clients/analysis" });
    await expect(heading(page, "All portfolios")).toBeVisible();
    await page.locator("#analysis__tabs_panel-0").getByRole("link", { name: "Ellie's portfolio" }).click();
    await expect(heading(page, "Ellie's portfolio")).toBeVisible();
    // the drill-down opens on the investments; the accounts are a tab away
    await page.getByRole("link", { name: "Accounts", exact: true }).click();
    await page.locator("#analysis__tabs_panel-0").getByRole("link", { name: "Ellie Stocks and Shares ISA" }).click();
    await expect(heading(page, "Ellie Stocks and Shares ISA")).toBeVisible();
    await expectAccessible(page);

    await back(page).click();
    await expect(heading(page, "Ellie's portfolio")).toBeVisible();
    if (javaScript === "on") {
      // with JavaScript Back retraces the views visited: the portfolio's investments before its accounts
      await expect(page).toHaveURL(/tab=accounts/);
      await back(page).click();
      await expect(page).toHaveURL(/id=portfolio-\d+&tab=investments$/);
    }
    await back(page).click();
    await expect(heading(page, "All portfolios")).toBeVisible();
    await expect(page).toHaveURL(/\/clients\/analysis$/);
    // no filter left: the clients home
    await back(page).click();
    await expect(page).toHaveURL(/\/clients\/home$/);
  });

  test("Back returns to the filters visited, not only the level above @js-only", async ({ page }) => {
    await signIn(page, "demo.client", { path: "/login?redirectTo=/clients/analysis" });
    await page.locator("#analysis__tabs_panel-0").getByRole("link", { name: "Ellie's portfolio" }).click();
    await expect(heading(page, "Ellie's portfolio")).toBeVisible();
    await page.getByRole("link", { name: "Value", exact: true }).click();
    await expect(page).toHaveURL(/chart=value/);
    // the view before was the same portfolio on the Percentage chart
    await back(page).click();
    await expect(page).not.toHaveURL(/chart=value/);
    await expect(heading(page, "Ellie's portfolio")).toBeVisible();
  });
});

test("the main bar on a wide screen has no Back button", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await signIn(page, "demo.client", { path: "/login?redirectTo=/clients/balance-sheet" });
  await expect(page).toHaveURL(/\/clients\/balance-sheet$/);
  await expect(mainMenu(page)).toBeVisible();
  await expect(back(page)).toHaveCount(0);
});
