import { expect, expectAccessible, scriptsReady, signIn, signOut, test } from "./fixtures";

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

// The My Account menu opened while the page's scripts are still on their way stays open when they
// arrive (its close-after-a-navigation rule once shut it at hydration, hiding Log out under the
// pointer); a navigation from it still closes it.
test("the account menu opened before the scripts arrive stays open @js-only", async ({ page }) => {
  await signIn(page, "demo.client");
  await expect(page).toHaveURL(/\/clients\/home$/);
  let holding = true;
  const releases: Array<() => void> = [];
  await page.route(/\/build\/.*\.js(\?.*)?$/, async (route) => {
    if (holding) await new Promise<void>((resolve) => releases.push(resolve));
    await route.continue();
  });
  await page.goto("/clients/home", { waitUntil: "commit" });
  await page.getByText("My Account").click();
  const logOut = page.getByRole("button", { name: "Log out" });
  await expect(logOut).toBeVisible();
  holding = false;
  for (const release of releases.splice(0)) release();
  await scriptsReady(page);
  await expect(logOut).toBeVisible();
  await page.getByRole("link", { name: "Personal details" }).first().click();
  await expect(page.getByRole("heading", { level: 1, name: "Personal details" })).toBeVisible();
  await expect(logOut).toBeHidden();
});

test("the cookie notice is remembered once accepted", async ({ page }) => {
  await page.goto("/login");
  // a signed-out visitor's form: it carries the honeypot, left empty (conventions)
  await expect(page.locator('form[action="/cookie-consent"] input[name="name__confirm"]')).toHaveValue("");
  await Promise.all([
    // the post's own answer (with JavaScript the route's manifest is fetched first, on the click)
    page.waitForResponse((r) => r.request().method() === "POST" && new URL(r.url()).pathname === "/cookie-consent"),
    page.getByRole("button", { name: "Accept cookies" }).click(),
  ]);
  await expect(page.getByRole("button", { name: "Accept cookies" })).toHaveCount(0);
  await page.reload();
  await expect(page.getByRole("button", { name: "Accept cookies" })).toHaveCount(0);
});

test("text pages show the site's content, and an unknown one says so @once", async ({ page }) => {
  await page.goto("/core/privacy-policy");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expectAccessible(page);
  // spec 000 §2, 002 §2: the legal pages also answer with -view, showing the same text
  const view = await page.goto("/core/site-terms-view");
  expect(view?.status()).toBe(200);
  await expect(page.getByRole("heading", { level: 1, name: "Terms of use" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Back" })).toHaveAttribute("href", "/login");
  await expectAccessible(page);
  const response = await page.goto("/core/no-such-page");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { level: 1, name: "Unknown page" })).toBeVisible();
  await expect(page.getByText("Unable to locate the text for this page.")).toBeVisible();
});
