import { expect, expectAccessible, signIn, test } from "./fixtures";

const ACCESS_DENIED =
  "You are not authorised to view the page that you requested. Please contact your adviser if this problem persists.";

test.describe("who may see what", () => {
  test("a signed-out visitor is sent to login and, once signed in, back to the page asked for", async ({ page }) => {
    await page.goto("/clients/personal-details");
    await expect(page).toHaveURL(/\/login\?redirectTo=%2Fclients%2Fpersonal-details/);
    await page.getByLabel("Username").fill("demo.client");
    await page.getByLabel("Password", { exact: true }).fill("Demo-pass-1");
    await page.getByRole("button", { name: "Login", exact: true }).click();
    await expect(page).toHaveURL(/\/clients\/personal-details$/);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  });

  test("a client asking for an adviser page gets Access Denied", async ({ page }) => {
    await signIn(page, "demo.client");
    await expect(page).toHaveURL(/\/clients\/home$/);
    const response = await page.goto("/advisers/clients");
    expect(response?.status()).toBe(403);
    await expect(page.getByRole("heading", { level: 1, name: "Access Denied" })).toBeVisible();
    await expect(page.getByText(ACCESS_DENIED)).toBeVisible();
    // issue 40: the title says what happened, as the heading does
    await expect(page).toHaveTitle("Access Denied | Client Online");
    await expectAccessible(page);
    await page.getByRole("link", { name: "Return to Client Online" }).click();
    await expect(page).toHaveURL(/\/clients\/home$/);
  });

  test("an unknown address gets Page Not Found @once", async ({ page }) => {
    const response = await page.goto("/no/such/page");
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { level: 1, name: "Page Not Found" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Return to Client Online" })).toBeVisible();
    await expect(page).toHaveTitle("Page Not Found | Client Online");
    await expectAccessible(page);
  });

  test("a page a route refuses or cannot find is titled with what happened, in the user's language", async ({
    page,
  }) => {
    // a route's own 404 (no such message's file) and a refused page, signed in
    await signIn(page, "demo.client");
    await expect(page).toHaveURL(/\/clients\/home$/);
    const missing = await page.goto("/clients/valuation-report/jobs/999999");
    expect(missing?.status()).toBe(404);
    await expect(page.getByRole("heading", { level: 1, name: "Page Not Found" })).toBeVisible();
    await expect(page).toHaveTitle("Page Not Found | Client Online");
    await page.goto("/advisers/clients");
    await expect(page.getByRole("heading", { level: 1, name: "Access Denied" })).toBeVisible();
    await expect(page).toHaveTitle("Access Denied | Client Online");
    await expectAccessible(page);
  });
});

test.describe("when the planning platform is down", () => {
  const down = process.env.E2E_DEAD_PLATFORM_BASE_URL ?? "http://localhost:1";

  test("signing in says the network is unavailable and keeps the username", async ({ page }) => {
    await page.goto(`${down}/login`);
    await page.getByLabel("Username").fill("demo.client");
    await page.getByLabel("Password", { exact: true }).fill("Demo-pass-1");
    await page.getByRole("button", { name: "Login", exact: true }).click();
    await expect(page.getByText("Network unavailable")).toBeVisible();
    await expect(page.getByText("Please check you are connected to the internet and try again.")).toBeVisible();
    await expect(page.getByLabel("Username")).toHaveValue("demo.client");
    await expectAccessible(page);
  });

  test("a signed-in page gives the spec's message, not a crash @once", async ({ page }) => {
    // The same cookie is valid on both portals (one SESSION_SECRET); only this one has no platform.
    await signIn(page, "demo.client");
    await expect(page).toHaveURL(/\/clients\/home$/);
    const response = await page.goto(`${down}/clients/personal-details`);
    expect(response?.status()).toBe(503);
    await expect(page.getByRole("heading", { name: "Network unavailable" })).toBeVisible();
    await expect(page.locator("body")).not.toContainText("Error:");
    await expectAccessible(page);
  });
});

test.describe("operators' probes", () => {
  test("liveness always answers; readiness follows the platform @once", async ({ request }) => {
    const down = process.env.E2E_DEAD_PLATFORM_BASE_URL ?? "http://localhost:1";
    expect((await request.get("/healthz")).status()).toBe(200);
    expect((await request.get("/readyz")).status()).toBe(200);
    expect((await request.get(`${down}/healthz`)).status()).toBe(200);
    expect((await request.get(`${down}/readyz`)).status()).toBe(503);
  });

  test("pages carry the security headers @once", async ({ request }) => {
    const response = await request.get("/login");
    const headers = response.headers();
    expect(headers["content-security-policy"]).toMatch(/script-src 'self' 'nonce-[^']+'/);
    expect(headers["content-security-policy"]).toContain("frame-ancestors 'none'");
    expect(headers["x-frame-options"]).toBe("DENY");
    expect(headers["x-content-type-options"]).toBe("nosniff");
    const session = response.headers()["set-cookie"] ?? "";
    expect(session).toMatch(/HttpOnly/i);
  });
});
