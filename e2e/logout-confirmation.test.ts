import { expect, expectAccessible, signIn, test } from "./fixtures";

// spec 000 §2 "Log out menu item": while a review is in progress the user confirms 'Changes you
// have made will not be saved. Are you sure you want to log out?', then 'Logging out...' shows
// (docs/decisions/096). Here the confirmation page the menu's form leads to without JavaScript;
// the menu's own dialog needs a page in progress (the annual review), whose journey tests it.

const TEXT = "Changes you have made will not be saved. Are you sure you want to log out?";
const CONFIRMATION = `/logout?${new URLSearchParams({ confirm: "review", returnTo: "/clients/personal-details" })}`;

test.describe("the log out confirmation page", () => {
  test("Cancel goes back to the page; Log out logs out", async ({ page }) => {
    await signIn(page, "demo.client");
    await expect(page).toHaveURL(/\/clients\/home$/);

    await page.goto(CONFIRMATION);
    await expect(page.getByRole("heading", { level: 1, name: "Log out" })).toBeVisible();
    await expect(page.getByText(TEXT)).toBeVisible();
    await expectAccessible(page);
    await page.getByRole("link", { name: "Cancel" }).click();
    await expect(page).toHaveURL(/\/clients\/personal-details$/);

    await page.goto(CONFIRMATION);
    await page.getByRole("main").getByRole("button", { name: "Log out" }).click();
    await expect(page).toHaveURL(/\/login\?reason=UserLoggedOut$/);
    await page.goto("/clients/home");
    await expect(page).toHaveURL(/\/login\?redirectTo=%2Fclients%2Fhome$/);
  });

  test("is not shown when signed out @once", async ({ page }) => {
    await page.goto(CONFIRMATION);
    await expect(page).toHaveURL(/\/login$/);
  });
});
