import {
  DEMO_PASSWORD,
  errorSummary,
  expect,
  expectAccessible,
  expectStillWhenScriptsArrive,
  scriptsReady,
  signInThroughForm,
  signOut,
  test,
} from "./fixtures";

test.describe("signing in", () => {
  test("the login page offers client and adviser tabs and is accessible", async ({ page }) => {
    await page.goto("/login");
    await expect(page.getByRole("heading", { level: 1, name: "Log in to Client Online" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Client", exact: true })).toHaveAttribute("aria-current", "page");
    await page.getByRole("link", { name: "Adviser", exact: true }).click();
    await expect(page).toHaveURL(/userType=adviser/);
    await expect(page.getByRole("link", { name: "Adviser", exact: true })).toHaveAttribute("aria-current", "page");
    await expectAccessible(page);
  });

  test("empty fields are named in the error summary and beside the fields", async ({ page }) => {
    await page.goto("/login");
    await page.getByRole("button", { name: "Login", exact: true }).click();
    const summary = page.getByRole("alert").filter({ hasText: "There is a problem" });
    await expect(summary.getByRole("link", { name: "Please enter a username" })).toBeVisible();
    await expect(summary.getByRole("link", { name: "Password is required" })).toBeVisible();
    await expect(page.getByLabel("Username")).toHaveAttribute("aria-invalid", "true");
    await expectAccessible(page);
  });

  test("a wrong password says so, keeps the username and clears the password", async ({ page }) => {
    await page.goto("/login");
    await page.getByLabel("Username").fill("demo.client");
    await page.getByLabel("Password", { exact: true }).fill("not-the-password");
    await page.getByRole("button", { name: "Login", exact: true }).click();
    await expect(page.getByText("Either your username or your password is incorrect.")).toBeVisible();
    await expect(page.getByLabel("Username")).toHaveValue("demo.client");
    await expect(page.getByLabel("Password", { exact: true })).toHaveValue("");
    await expectAccessible(page);
  });

  // Issue 40 (decision 194, GOV.UK's pattern): the refusal is the form's error, in the error summary
  // above the h1, which takes the focus; the title says there is an error. With JavaScript the page
  // is not reloaded, and the focus was left nowhere.
  test("after a wrong password the error summary says so, linked to the password, and has the focus", async ({
    page,
  }) => {
    const scripts = test.info().project.name !== "no-js";
    await page.goto("/login");
    await scriptsReady(page);
    await page.getByLabel("Username").fill("demo.client");
    await page.getByLabel("Password", { exact: true }).fill("not-the-password");
    await page.getByRole("button", { name: "Login", exact: true }).click();
    const summary = errorSummary(page);
    const link = summary.getByRole("link", { name: "Either your username or your password is incorrect." });
    await expect(link).toBeVisible();
    const passwordId = await page.getByLabel("Password", { exact: true }).getAttribute("id");
    await expect(link).toHaveAttribute("href", `#${passwordId}`);
    await expect(page).toHaveTitle(/^Error: /);
    // said once: in the summary, not again in an alert of its own
    await expect(page.getByText("Either your username or your password is incorrect.")).toHaveCount(1);
    await expectAccessible(page);
    // with JavaScript the page is not reloaded: the focus was left on nothing before
    if (scripts) {
      await expect(summary).toBeFocused();
      expect(await page.evaluate(() => document.activeElement?.className)).toBe("error-summary");
    }
  });

  test("a client cannot sign in on the adviser tab", async ({ page }) => {
    await page.goto("/login?userType=adviser");
    await page.getByLabel("Username").fill("demo.client");
    await page.getByLabel("Password", { exact: true }).fill(DEMO_PASSWORD);
    await page.getByRole("button", { name: "Login", exact: true }).click();
    await expect(page.getByText("Either your username or your password is incorrect.")).toBeVisible();
  });

  test("the success alerts of the query flags show @once", async ({ page }) => {
    await page.goto("/login?passwordChanged=true");
    await expect(
      page.getByText("Your password has now been changed. Please log in with your new password."),
    ).toBeVisible();
    await expectAccessible(page);
    await page.goto("/login?usernameSent=true");
    await expect(page.getByText("Your username has been emailed to you")).toBeVisible();
    await expectAccessible(page);
  });
});

// Issue 39 finding 5 (docs/decisions/167): the anti-forgery token is bound to the session. A
// browser whose session ended elsewhere (the same cookies logged out in another window) opens the
// login page: the ended session's cookie is dropped with its token, and the form signs in.
test("after the session ended in another window, the login page signs in again", async ({ page, browser, baseURL }) => {
  await signInThroughForm(page, "demo.messages");
  await expect(page).not.toHaveURL(/\/login/);
  const other = await browser.newContext({ baseURL });
  try {
    await other.addCookies(await page.context().cookies());
    const window = await other.newPage();
    await window.goto(new URL(page.url()).pathname);
    await signOut(window);
    await expect(window).toHaveURL(/\/login\?reason=UserLoggedOut/);
  } finally {
    await other.close();
  }
  await page.goto("/login");
  await expect(page.getByRole("heading", { level: 1, name: "Log in to Client Online" })).toBeVisible();
  await expectAccessible(page);
  await page.getByLabel("Username").fill("demo.messages");
  await page.getByLabel("Password", { exact: true }).fill(DEMO_PASSWORD);
  await page.getByRole("button", { name: "Login", exact: true }).click();
  await expect(page).not.toHaveURL(/\/login/);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
});

test("show password is offered only when JavaScript runs", async ({ page, javaScript }) => {
  await page.goto("/login");
  const password = page.getByLabel("Password", { exact: true });
  await password.fill("secret-value");
  if (javaScript === "off") {
    await expect(page.getByLabel("Show password")).toHaveCount(0);
    await expect(password).toHaveAttribute("type", "password");
    return;
  }
  await page.getByLabel("Show password").check();
  await expect(password).toHaveAttribute("type", "text");
  await expect(password).toHaveValue("secret-value");
  await page.getByLabel("Show password").uncheck();
  await expect(password).toHaveAttribute("type", "password");
});

// The box arrives with the page's scripts: a pointer on its way to Login must find Login where it was.
test("the Login button stays where it is when the page's scripts arrive @js-only", async ({ page }) => {
  await expectStillWhenScriptsArrive(page, "/login", page.getByRole("button", { name: "Login", exact: true }), [
    page.getByLabel("Show password"),
  ]);
});

test.describe("the site's own settings on the login page (spec 000 §3)", () => {
  test("a hint under the client tab's Username field is tied to it", async ({ page }) => {
    await page.goto("/login");
    const hint = page.getByText("Your username was sent to you in your welcome email, for example jane.smith.");
    await expect(hint).toBeVisible();
    const hintId = await hint.getAttribute("id");
    expect(hintId).toBeTruthy();
    await expect(page.getByLabel("Username")).toHaveAttribute("aria-describedby", new RegExp(`(^| )${hintId}( |$)`));
    await expect(page.getByLabel("Username")).toHaveAccessibleDescription(/welcome email/);
    await expectAccessible(page);

    // with an error, the field is described by the hint and the error
    await page.getByRole("button", { name: "Login", exact: true }).click();
    await expect(page.getByLabel("Username")).toHaveAccessibleDescription(/welcome email.*Please enter a username/);

    await page.goto("/login?userType=adviser");
    await expect(hint).toHaveCount(0);
  });

  test("the site's favicon is linked and served @once", async ({ page, request }) => {
    await page.goto("/login");
    const icon = page.locator('link[rel="icon"]');
    await expect(icon).toHaveCount(1);
    await expect(icon).toHaveAttribute("href", "/brand/favicon.svg");
    await expect(icon).toHaveAttribute("type", "image/svg+xml");
    expect((await request.get("/brand/favicon.svg")).ok()).toBe(true);
  });

  test("the login background follows the screen width (spec 000 §9) @once", async ({ page }) => {
    const background = () =>
      page.locator("main").evaluate((main) => {
        const style = getComputedStyle(main);
        return { image: style.backgroundImage, colour: style.backgroundColor };
      });
    // the firm's colour on every width; no image on a phone
    await page.setViewportSize({ width: 400, height: 800 });
    await page.goto("/login");
    expect(await background()).toEqual({ image: "none", colour: "rgb(20, 40, 75)" });
    // 576 to 1023px: the tablet portrait image
    await page.setViewportSize({ width: 800, height: 1000 });
    expect((await background()).image).toMatch(/\/brand\/login-bg-portrait\.svg/);
    // 1024 to 1199px: tablet landscape, which this site leaves to the desktop image
    await page.setViewportSize({ width: 1100, height: 800 });
    expect((await background()).image).toMatch(/\/brand\/login-bg\.svg/);
    // wider: the desktop image
    await page.setViewportSize({ width: 1400, height: 900 });
    expect((await background()).image).toMatch(/\/brand\/login-bg\.svg/);
    // the form itself stays on its white card
    await expect(page.locator(".login")).toHaveCSS("background-color", "rgb(255, 255, 255)");
    await expectAccessible(page);

    // other pages keep the portal's own background
    await page.goto("/login/help");
    expect((await background()).image).toBe("none");
  });
});
