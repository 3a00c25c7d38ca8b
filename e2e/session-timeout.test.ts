import Database from "better-sqlite3";
import { startServers } from "../scripts/servers.mjs";
import { expect, expectAccessible, signIn, signInThroughForm, test } from "./fixtures";

// spec 000 §4 "Session timeout" (docs/decisions/060). With JavaScript the browser's clock is moved
// with Playwright's clock API; without JavaScript the server must see time pass, so that journey
// runs its own platform whose timeout profile is one minute.

const LOST_SESSION_TEXT = "Your session has ended. Please log in again.";

// The warning is JavaScript's: these run only in the "js" project (playwright.config.ts).
test.describe("with JavaScript", { tag: "@js-only" }, () => {
  test("the warning comes 5 minutes before the end; 'Stay logged in' keeps the session", async ({ page }) => {
    await page.clock.install();
    // A new session: a kept one (signIn) may have been active up to a minute ago, and the server
    // then allows that much less (remainingIdleMs), which moves the warning earlier.
    await signInThroughForm(page, "demo.client");
    await expect(page).toHaveURL(/\/clients\/home$/);
    const dialog = page.getByRole("alertdialog", { name: "Your session is about to end" });
    await expect(page.locator("dialog[data-timers=running]")).toBeAttached();

    await page.clock.fastForward("24:50");
    await expect(dialog).toBeHidden();
    await page.clock.fastForward("00:10");
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText(/you will be logged out in [45] min \d\d s because you have not been active/);
    const stay = dialog.getByRole("button", { name: "Stay logged in" });
    await expect(stay).toBeFocused();
    // A modal over an inert page (showModal), with the blurred backdrop.
    expect(await dialog.evaluate((d) => d.matches(":modal"))).toBe(true);
    expect(await dialog.evaluate((d) => getComputedStyle(d, "::backdrop").backdropFilter)).toContain("blur");
    await expectAccessible(page);

    const heartbeat = page.waitForResponse(
      (r) => r.url().endsWith("/session/heartbeat") && r.request().method() === "POST",
    );
    await stay.click();
    expect((await heartbeat).status()).toBe(200);
    await expect(dialog).toBeHidden();

    // Escape is 'stay' too.
    await page.clock.fastForward("25:00");
    await expect(dialog).toBeVisible();
    const again = page.waitForResponse((r) => r.url().endsWith("/session/heartbeat"));
    await page.keyboard.press("Escape");
    expect((await again).status()).toBe(200);
    await expect(dialog).toBeHidden();
    await page.reload();
    await expect(page).toHaveURL(/\/clients\/home$/);
  });

  test("presses reset the timers once a second, not on no-heartbeat elements; a shown tab sends one", async ({
    page,
  }) => {
    await page.clock.install();
    await signIn(page, "demo.client");
    await expect(page).toHaveURL(/\/clients\/home$/);
    await expect(page.locator("dialog[data-timers=running]")).toBeAttached();
    let heartbeats = 0;
    page.on("request", (r) => {
      if (r.url().endsWith("/session/heartbeat")) heartbeats++;
    });
    const settled = async (count: number) => expect.poll(() => heartbeats).toBe(count);
    await page.evaluate(() => {
      const marked = document.createElement("button");
      marked.type = "button";
      marked.textContent = "Marked";
      marked.dataset.noHeartbeat = "";
      document.querySelector("main")?.append(marked);
    });
    await page.clock.pauseAt(Date.now() + 20 * 60_000); // 20 minutes idle, the clock then stands still
    await page.getByRole("button", { name: "Marked" }).click();
    await page.clock.fastForward("00:02");
    await settled(0);

    const heading = page.getByRole("heading", { level: 1 });
    await heading.click();
    await heading.click(); // within the same second: throttled
    await settled(1);
    await page.clock.fastForward("00:02");
    await heading.click();
    await settled(2);

    await page.clock.fastForward("00:02");
    await page.evaluate(() => document.dispatchEvent(new Event("visibilitychange")));
    await settled(3);

    // The presses restarted the timers: 24 minutes after the last one there is no warning yet.
    await page.clock.fastForward("24:00");
    await expect(page.getByRole("alertdialog")).toBeHidden();
  });

  test("at the end the user is logged out, to the login page's lost-session text", async ({ page }) => {
    await page.clock.install();
    await signIn(page, "demo.client");
    await expect(page).toHaveURL(/\/clients\/home$/);
    await expect(page.locator("dialog[data-timers=running]")).toBeAttached();
    await page.clock.fastForward("25:00");
    await expect(page.getByRole("alertdialog", { name: "Your session is about to end" })).toBeVisible();
    await page.clock.fastForward("05:00");
    await expect(page).toHaveURL(/\/login\?reason=LostSession&redirectTo=%2Fclients%2Fhome$/);
    await expect(page.getByText(LOST_SESSION_TEXT)).toBeVisible();
    // The session is gone on the server too.
    await page.goto("/clients/home");
    await expect(page).toHaveURL(/\/login\?redirectTo=%2Fclients%2Fhome$/);
  });

  test("a heartbeat answered 'No current session' goes to the lost-session login", async ({ page }) => {
    await signIn(page, "demo.client");
    await expect(page).toHaveURL(/\/clients\/home$/);
    await expect(page.locator("dialog[data-timers=running]")).toBeAttached();
    await page.context().clearCookies({ name: "__session" });
    await page.getByRole("heading", { level: 1 }).click();
    await expect(page).toHaveURL(/\/login\?reason=LostSession$/);
    await expect(page.getByText(LOST_SESSION_TEXT)).toBeVisible();
  });
});

// The server alone ends the session: this runs only in the "no-js" project.
test.describe("without JavaScript", { tag: "@no-js-only" }, () => {
  // Its own platform and portal: the timeout profile is shortened to one minute there only.
  let servers: Awaited<ReturnType<typeof startServers>> | null = null;

  test.beforeAll(async () => {
    if (test.info().project.name !== "no-js") return;
    test.info().setTimeout(120_000);
    servers = await startServers();
    const db = new Database(servers.platformDb);
    try {
      db.prepare("update login_profiles set session_timeout = 1 where id = 1").run();
    } finally {
      db.close();
    }
  });
  test.afterAll(() => servers?.stop());

  test("an idle session ends on the server: the next page is the login with the lost-session text", async ({
    page,
  }) => {
    test.setTimeout(150_000);
    const portal = servers!.portalUrl;
    await signIn(page, "demo.client", { path: `${portal}/login` });
    await expect(page).toHaveURL(`${portal}/clients/home`);
    await expect(page.getByRole("alertdialog")).toBeHidden(); // no script, no warning
    await page.waitForTimeout(62_000); // the profile's one minute, as the server counts it
    await page.goto(`${portal}/clients/home`);
    await expect(page).toHaveURL(`${portal}/login?reason=LostSession&redirectTo=%2Fclients%2Fhome`);
    await expect(page.getByText(LOST_SESSION_TEXT)).toBeVisible();
    await expectAccessible(page);
  });
});
