import type { Page } from "@playwright/test";
import { expect, expectAccessible, signIn, test } from "./fixtures";

// spec 002 §8 'Leaving Site' and §9 "External links: open in a new tab without opener": a message
// body's link to another host (the seeded "Your portfolio after the Budget" links to GOV.UK).

const SUBJECT = "Your portfolio after the Budget";
const MESSAGE_LIST = `/clients/documents-and-messages?search=${encodeURIComponent("after the Budget")}`;
const DESTINATION = "https://www.gov.uk/government/topical-events/budget";

async function openBudgetMessage(page: Page, js: boolean) {
  await signIn(page, "demo.client");
  await expect(page).toHaveURL(/\/clients\/home$/);
  await page.goto(MESSAGE_LIST);
  await page.getByRole("link", { name: SUBJECT }).click();
  const subject = page.getByRole("heading", { level: 2, name: SUBJECT });
  await expect(subject).toBeVisible();
  // the pane moves focus to the subject once its scripts run: the page is hydrated
  if (js) await expect(subject).toBeFocused();
  return page.locator(".reading-pane__body").getByRole("link", { name: "GOV.UK" });
}

test.describe("leaving the portal from a message", () => {
  test("a link to another host asks first: Cancel and Escape stay, Continue opens a new tab without opener @js-only", async ({
    page,
  }) => {
    // the destination is answered here, so the journey never leaves for the real site
    await page.context().route("https://www.gov.uk/**", (route) =>
      route.fulfill({
        status: 200,
        contentType: "text/html",
        body: "<!doctype html><title>GOV.UK</title><p>Budget</p>",
      }),
    );
    const link = await openBudgetMessage(page, true);
    const here = page.url();

    await link.click();
    const dialog = page.getByRole("dialog", { name: "Leaving Site" });
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText("You are about to leave Client Online for www.gov.uk. Do you want to continue?");
    await expect(dialog.getByRole("button", { name: "Continue" })).toBeFocused();
    await expectAccessible(page);

    await dialog.getByRole("button", { name: "Cancel" }).click();
    await expect(dialog).toBeHidden();
    await expect(link).toBeFocused();
    expect(page.url()).toBe(here);
    expect(page.context().pages()).toHaveLength(1);

    await link.click();
    await expect(dialog).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(dialog).toBeHidden();
    await expect(link).toBeFocused();

    await link.click();
    const opened = page.context().waitForEvent("page");
    await dialog.getByRole("button", { name: "Continue" }).click();
    const tab = await opened;
    await tab.waitForLoadState();
    expect(tab.url()).toBe(DESTINATION);
    expect(await tab.evaluate(() => window.opener)).toBeNull();
    await expect(dialog).toBeHidden();
    expect(page.url()).toBe(here);
    await tab.close();
  });

  test("without JavaScript the link opens in a new tab without opener @no-js-only", async ({ page }) => {
    const link = await openBudgetMessage(page, false);
    await expect(link).toHaveAttribute("href", DESTINATION);
    await expect(link).toHaveAttribute("target", "_blank");
    await expect(link).toHaveAttribute("rel", /\bnoopener\b/);
    await expect(link).toHaveAttribute("rel", /\bnoreferrer\b/);
    await expectAccessible(page);
  });
});
