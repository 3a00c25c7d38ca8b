import { startServers } from "../scripts/servers.mjs";
import { expect, expectAccessible, signIn, test } from "./fixtures";

// spec 000 §2 and §4 "Maintenance" (docs/decisions/061). Switching maintenance on would send every
// other journey to the maintenance page, so this one runs its own platform and portal.

test.describe.configure({ mode: "serial" });

let servers: Awaited<ReturnType<typeof startServers>> | null = null;

test.beforeAll(async () => {
  test.info().setTimeout(120_000);
  servers = await startServers();
});
test.afterAll(() => servers?.stop());

async function setMaintenance(on: boolean) {
  const response = await fetch(`${servers!.platformUrl}/dev/maintenance`, {
    method: "PUT",
    headers: { "Content-Type": "application/json", Accept: "application/json", "X-Caller-Key": servers!.callerKey },
    body: JSON.stringify({ maintenance: on }),
  });
  expect(await response.json()).toEqual({ maintenance: on, status: on ? "BAD" : "GOOD" });
}

test("maintenance sends visitors and signed-in users to the maintenance page; legal pages stay", async ({
  page,
  browser,
  javaScript,
}) => {
  test.setTimeout(90_000);
  const portal = servers!.portalUrl;
  await page.goto(`${portal}/maintenance`);
  await expect(page, "no maintenance: back into the portal").toHaveURL(`${portal}/login`);
  await signIn(page, "demo.client", { path: `${portal}/login` });
  await expect(page).toHaveURL(`${portal}/clients/home`);

  await setMaintenance(true);
  try {
    // The portal keeps the platform's answer a few seconds.
    await expect(async () => {
      await page.goto(`${portal}/clients/home`);
      expect(page.url()).toBe(`${portal}/maintenance`);
    }).toPass({ timeout: 15_000 });
    await expect(page.getByRole("heading", { level: 1, name: "Client Online is down for maintenance" })).toBeVisible();
    await expect(page.getByText("We are carrying out planned maintenance on Client Online.")).toBeVisible();
    await expectAccessible(page);

    // The core legal pages skip the check.
    await page.goto(`${portal}/core/site-terms`);
    await expect(page).toHaveURL(`${portal}/core/site-terms`);
    await expect(page.getByRole("heading", { level: 1, name: "Terms of use" })).toBeVisible();
    if (javaScript === "on") {
      // A navigation inside the page (no reload) meets the check too.
      await page.getByRole("link", { name: "Back" }).click();
      await expect(page).toHaveURL(`${portal}/maintenance`);
    }

    // A visitor who is not signed in.
    const visitor = await browser.newContext({ locale: "en-GB" });
    try {
      const other = await visitor.newPage();
      if (javaScript === "off") await other.route(/\/build\/.*\.js(\?.*)?$/, (route) => route.abort());
      await other.goto(`${portal}/login`);
      await expect(other).toHaveURL(`${portal}/maintenance`);
      await expect(
        other.getByRole("heading", { level: 1, name: "Client Online is down for maintenance" }),
      ).toBeVisible();
      await other.goto(`${portal}/core/privacy-policy`);
      await expect(other.getByRole("heading", { level: 1, name: "Privacy policy" })).toBeVisible();
    } finally {
      await visitor.close();
    }
  } finally {
    await setMaintenance(false);
  }

  // Off again: once the kept answer expires the maintenance page leads back in.
  await expect(async () => {
    await page.goto(`${portal}/maintenance`);
    expect(page.url()).toBe(`${portal}/clients/home`);
  }).toPass({ timeout: 15_000 });
});
