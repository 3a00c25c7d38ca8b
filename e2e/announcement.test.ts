import type { BrowserContext, Page } from "@playwright/test";
import { expect, expectAccessible, signIn, test } from "./fixtures";

// spec 002 §2 "Notification and postponement panels" and §4 "Announcement and cookie notice": a
// client with Messages access sees the site's announcement; 'Don't show this again' keeps it
// hidden (a cookie keyed by its hash, until 2099), a plain close for the browser session
// (docs/decisions/096). With JavaScript the panel goes at once; without, the close posts and
// comes back to the same page.

const TITLE = "Our offices over the holidays";

function panelOf(page: Page) {
  return page.getByRole("region", { name: TITLE });
}

async function announcementCookies(context: BrowserContext) {
  return (await context.cookies()).filter((c) => c.name.startsWith("announcement_"));
}

test.describe("the announcement", () => {
  test("demo.messages ticks 'Don't show this again' and closes it: hidden on reload and on the next page", async ({
    page,
  }) => {
    await signIn(page, "demo.messages");
    await expect(page).toHaveURL(/\/clients\/documents-and-messages$/);
    const panel = panelOf(page);
    await expect(panel).toBeVisible();
    await expect(panel).toContainText("will be closed from 25 December to 1 January");
    await expectAccessible(page);

    await panel.getByRole("checkbox", { name: "Don't show this again" }).check();
    await panel.getByRole("button", { name: "Close announcement" }).click();
    await expect(panel).toBeHidden();
    await expect(page).toHaveURL(/\/clients\/documents-and-messages$/);

    // with JavaScript the panel goes before the answer (and its cookie) arrives
    await expect.poll(async () => (await announcementCookies(page.context())).length).toBe(1);
    const [cookie] = await announcementCookies(page.context());
    expect(cookie?.name).toMatch(/^announcement_hidden_[0-9a-z]{1,7}$/);
    // the portal sends Expires 31 Dec 2099 (tests/portal/announcement.test.ts); Chromium keeps a
    // cookie at most 400 days (RFC 6265bis), so the browser's copy lasts that long
    expect(cookie!.expires * 1000).toBeGreaterThan(Date.now() + 395 * 24 * 3600 * 1000);

    await page.reload();
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await expect(panelOf(page)).toHaveCount(0);
    await page.goto("/clients/personal-details");
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await expect(panelOf(page)).toHaveCount(0);
  });

  test("closing without the tick hides it for this browser session only", async ({ page }) => {
    await signIn(page, "demo.messages");
    const panel = panelOf(page);
    await panel.getByRole("button", { name: "Close announcement" }).click();
    await expect(panel).toBeHidden();
    await expect
      .poll(async () => (await announcementCookies(page.context())).map((c) => c.name))
      .toEqual(["announcement_closed"]);
    const cookies = await announcementCookies(page.context());
    // a session cookie: the browser forgets it when it closes
    expect(cookies[0]!.expires).toBe(-1);
    await page.reload();
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await expect(panelOf(page)).toHaveCount(0);

    // a new browser session (the session cookie gone) shows it again
    await page.context().clearCookies({ name: "announcement_closed" });
    await page.reload();
    await expect(panelOf(page)).toBeVisible();
  });

  test("a client with Portfolio access sees none @once", async ({ page }) => {
    await signIn(page, "demo.client");
    await expect(page).toHaveURL(/\/clients\/home$/);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await expect(panelOf(page)).toHaveCount(0);
  });
});
