import type { Browser, Page } from "@playwright/test";
import { DEMO_PASSWORD, expect, expectAccessible, signIn, signInThroughForm, test } from "./fixtures";
import { copyUser } from "./platform";

// ASVS V3.3.4 (docs/decisions/170): My Account → 'Where you're signed in' lists the browsers
// signed in to the account and signs out one, or all the others; plain forms, with and without
// JavaScript. Each journey signs in as its own copy of a demo client, in this browser and in a
// "phone" (a browser context of its own that says it is Safari on an iPhone).

const IPHONE =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1";

function summary(page: Page) {
  return page.getByRole("alert").filter({ hasText: "There is a problem" });
}

function toast(page: Page, text: string) {
  return page.getByRole("status").filter({ hasText: text });
}

/** Signs `username` in on a phone of its own; answers its page, signed in. */
async function signInOnPhone(browser: Browser, baseURL: string | undefined, username: string) {
  const context = await browser.newContext({ baseURL, userAgent: IPHONE });
  const phone = await context.newPage();
  await signInThroughForm(phone, username);
  await expect(phone).not.toHaveURL(/\/login/);
  return phone;
}

/** Whether the phone is still signed in: its next page is the login page when not. */
async function expectSignedOut(phone: Page) {
  await phone.goto("/clients/home");
  await expect(phone).toHaveURL(/\/login/);
}

async function openSessions(page: Page) {
  await page.getByText("My Account").click();
  await page.getByRole("link", { name: "Where you’re signed in" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Where you’re signed in" })).toBeVisible();
}

test.describe("where you're signed in", () => {
  test("lists this browser and the phone, then signs the phone out", async ({ page, request, browser, baseURL }) => {
    // two browsers sign in through the form, and the current password is refused twice first
    test.slow();
    const username = await copyUser(request, "demo.assets");
    const phone = await signInOnPhone(browser, baseURL, username);
    await signIn(page, username);
    await expect(page).toHaveURL(/\/clients\//);
    await openSessions(page);

    const table = page.getByRole("table", { name: /Browsers signed in to your account/ });
    const rows = table.getByRole("row");
    // the header, this browser, the phone
    await expect(rows).toHaveCount(3);
    const thisBrowser = rows.nth(1);
    await expect(thisBrowser.getByRole("rowheader")).toContainText("This browser");
    await expect(thisBrowser.getByRole("rowheader")).toContainText(/on Linux|on Windows|on macOS/);
    await expect(thisBrowser.getByRole("cell").nth(2)).toHaveText("Now");
    await expect(thisBrowser.getByRole("button")).toHaveCount(0);
    const phoneRow = rows.nth(2);
    await expect(phoneRow.getByRole("rowheader")).toHaveText("Safari on iOS");
    // the address the portal saw (the journeys reach it on the loopback)
    await expect(phoneRow.getByRole("cell").first()).toHaveText(/^(127\.0\.0\.1|::1)$/);
    await expect(phoneRow.getByRole("cell").nth(1)).toHaveText(/^\d{1,2} \w{3} \d{4} \d{1,2}:\d{2} \S+$/);
    await expectAccessible(page);

    // the current password first (ASVS V3.3.4, decision 179): none, then a wrong one, signs nothing out
    const currentPassword = page.getByLabel("Current password", { exact: true });
    await expect(
      page.getByText("To sign out another browser, or all of them, enter your current password, then choose Sign out."),
    ).toBeVisible();
    // the button names the browser it signs out
    const signOutPhone = phoneRow.getByRole("button", { name: /^Sign out Safari on iOS, last active / });
    await signOutPhone.click();
    await expect(summary(page)).toContainText("Please enter your current password");
    await expect(currentPassword).toHaveAttribute("aria-invalid", "true");
    await currentPassword.fill("Not-the-password-6");
    await signOutPhone.click();
    await expect(summary(page)).toContainText("The current password is incorrect.");
    await expect(currentPassword).toHaveAccessibleDescription(/The current password is incorrect\./);
    await expect(currentPassword).toHaveValue("");
    await expectAccessible(page);
    await phone.reload();
    await expect(phone).not.toHaveURL(/\/login/);

    await currentPassword.fill(DEMO_PASSWORD);
    await signOutPhone.click();
    await expect(toast(page, "That browser has been signed out")).toBeVisible();
    await expect(page).toHaveURL(/\/clients\/sessions$/);
    await expect(rows).toHaveCount(2);
    await expect(page.getByText("You are not signed in anywhere else.")).toBeVisible();
    await expect(page.getByRole("button", { name: "Sign out all other browsers" })).toHaveCount(0);
    await expect(page.getByLabel("Current password", { exact: true })).toHaveCount(0);
    await expectAccessible(page);
    await expectSignedOut(phone);
    await phone.context().close();
  });

  test("signs out all the other browsers, this one staying signed in", async ({ page, request, browser, baseURL }) => {
    // three browsers sign in through the form
    test.slow();
    const username = await copyUser(request, "demo.assets");
    const phone = await signInOnPhone(browser, baseURL, username);
    const tablet = await signInOnPhone(browser, baseURL, username);
    await signIn(page, username);
    await expect(page).toHaveURL(/\/clients\//);
    await page.goto("/clients/sessions");
    await expect(page.getByRole("table").getByRole("row")).toHaveCount(4);

    await page.getByLabel("Current password", { exact: true }).fill(DEMO_PASSWORD);
    await page.getByRole("button", { name: "Sign out all other browsers" }).click();
    await expect(toast(page, "All other browsers have been signed out")).toBeVisible();
    await expect(page.getByRole("table").getByRole("row")).toHaveCount(2);
    await expectAccessible(page);
    await expectSignedOut(phone);
    await expectSignedOut(tablet);
    // this browser carries on
    await page.goto("/clients/home");
    await expect(page).toHaveURL(/\/clients\/home$/);
    await phone.context().close();
    await tablet.context().close();
  });

  test("an adviser is not offered it: the clients section sends them to their client list @once", async ({ page }) => {
    await signIn(page, "demo.adviser", { adviser: true });
    await expect(page.getByRole("link", { name: "Where you’re signed in" })).toHaveCount(0);
    await page.goto("/clients/sessions");
    await expect(page).toHaveURL(/\/advisers\/clients$/);
  });
});
