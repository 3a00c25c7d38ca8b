import { expect, expectAccessible, signIn, test } from "./fixtures";

// spec 002 §2: /core/factfind, /core/apa and /core/robo introduce journeys that run on another
// system and link to them; the link to another host asks 'Leaving Site' first with JavaScript
// (spec 002 §8) and opens a new tab without opener (§9); /core/review is the annual review
// (docs/decisions/096).

const JOURNEYS = [
  { path: "/core/factfind", title: "Fact find", url: "https://journeys.northbridgewealth.example/factfind" },
  { path: "/core/apa", title: "Automated personal advice", url: "https://journeys.northbridgewealth.example/apa" },
  { path: "/core/robo", title: "Retirement health check", url: "https://journeys.northbridgewealth.example/robo" },
];

test.describe("the journey pages", () => {
  test("a client reads each journey's page, with a link to it in a new tab", async ({ page }) => {
    await signIn(page, "demo.client");
    await expect(page).toHaveURL(/\/clients\/home$/);
    for (const journey of JOURNEYS) {
      await page.goto(journey.path);
      await expect(page.getByRole("heading", { level: 1, name: journey.title })).toBeVisible();
      await expect(page).toHaveTitle(`${journey.title} – Client Online`);
      const start = page.getByRole("link", { name: "Start now (opens in a new tab)" });
      await expect(start).toHaveAttribute("href", journey.url);
      await expect(start).toHaveAttribute("target", "_blank");
      await expect(start).toHaveAttribute("rel", /\bnoopener\b/);
    }
    await expectAccessible(page);
  });

  test("with JavaScript the link asks 'Leaving Site' first @js-only", async ({ page }) => {
    await page.context().route("https://journeys.northbridgewealth.example/**", (route) =>
      route.fulfill({
        status: 200,
        contentType: "text/html",
        body: "<!doctype html><title>Fact find</title><p>Fact find</p>",
      }),
    );
    await signIn(page, "demo.client");
    await expect(page).toHaveURL(/\/clients\/home$/);
    await page.goto("/core/factfind");
    const start = page.getByRole("link", { name: "Start now (opens in a new tab)" });
    const dialog = page.getByRole("dialog", { name: "Leaving Site" });
    // the click is the page's own once its scripts run (the session timeout's timers say so)
    await expect(page.locator("dialog.session-timeout[data-timers=running]")).toBeAttached();
    await start.click();
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText(
      "You are about to leave Client Online for journeys.northbridgewealth.example. Do you want to continue?",
    );
    await expectAccessible(page);
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await expect(dialog).toBeHidden();
    await expect(start).toBeFocused();

    await start.click();
    const opened = page.context().waitForEvent("page");
    await dialog.getByRole("button", { name: "Continue" }).click();
    const tab = await opened;
    await tab.waitForLoadState();
    expect(tab.url()).toBe(JOURNEYS[0]!.url);
    expect(await tab.evaluate(() => window.opener)).toBeNull();
    await tab.close();
  });

  test("a signed-out visitor is asked to sign in first, then comes back", async ({ page }) => {
    await page.goto("/core/apa");
    await expect(page).toHaveURL(/\/login\?redirectTo=%2Fcore%2Fapa$/);
    await page.getByLabel("Username").fill("demo.messages");
    await page.getByLabel("Password", { exact: true }).fill("Demo-pass-1");
    await page.getByRole("button", { name: "Login", exact: true }).click();
    await expect(page).toHaveURL(/\/core\/apa$/);
    await expect(page.getByRole("heading", { level: 1, name: "Automated personal advice" })).toBeVisible();
  });
});
