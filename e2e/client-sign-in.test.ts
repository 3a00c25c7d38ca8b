import { expect, expectAccessible, signIn, signOut, test } from "./fixtures";

test("a client signs in, sees the greeting and their personal details, and signs out", async ({ page }) => {
  await signIn(page, "demo.client");
  await expect(page).toHaveURL(/\/clients\/home$/);
  await expect(page.getByRole("heading", { level: 1, name: "Welcome, Ellie" })).toBeVisible();
  // A client never sees an adviser's 'Viewing …' link.
  await expect(page.getByRole("link", { name: /Viewing / })).toHaveCount(0);
  await expectAccessible(page);

  await page.getByText("My Account").click();
  await page.getByRole("link", { name: "Personal details" }).first().click();
  await expect(page).toHaveURL(/\/clients\/personal-details$/);
  await expect(page.getByRole("heading", { level: 1, name: "Personal details" })).toBeVisible();
  await expect(page.getByText("Eleanor").first()).toBeVisible();
  await expect(page.getByRole("heading", { name: "Addresses" })).toBeVisible();
  await expectAccessible(page);

  await page.getByText("My Account").click();
  await page.getByRole("link", { name: "Adviser details" }).first().click();
  await expect(page.getByRole("heading", { level: 1, name: "Adviser details" })).toBeVisible();
  await expect(page.getByText("Sarah Whitfield").first()).toBeVisible();
  await expectAccessible(page);

  await signOut(page);
  await expect(page).toHaveURL(/\/login\?reason=UserLoggedOut$/);
  await expect(page.getByText("You have been logged out.")).toBeVisible();

  // The old session is gone: the clients area asks for a sign-in again.
  await page.goto("/clients/personal-details");
  await expect(page).toHaveURL(/\/login/);
});

test("the cookie notice is remembered once accepted", async ({ page }) => {
  await page.goto("/login");
  await Promise.all([
    page.waitForResponse((r) => r.url().includes("/cookie-consent")),
    page.getByRole("button", { name: "Accept cookies" }).click(),
  ]);
  await expect(page.getByRole("button", { name: "Accept cookies" })).toHaveCount(0);
  await page.reload();
  await expect(page.getByRole("button", { name: "Accept cookies" })).toHaveCount(0);
});

test("text pages show the site's content, and an unknown one says so", async ({ page }) => {
  await page.goto("/core/privacy-policy");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expectAccessible(page);
  const response = await page.goto("/core/no-such-page");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { level: 1, name: "Unknown page" })).toBeVisible();
  await expect(page.getByText("Unable to locate the text for this page.")).toBeVisible();
});
