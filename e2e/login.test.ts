import { DEMO_PASSWORD, expect, expectAccessible, test } from "./fixtures";

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
    await page.getByRole("button", { name: "Login" }).click();
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
    await page.getByRole("button", { name: "Login" }).click();
    await expect(page.getByText("Either your username or your password is incorrect.")).toBeVisible();
    await expect(page.getByLabel("Username")).toHaveValue("demo.client");
    await expect(page.getByLabel("Password", { exact: true })).toHaveValue("");
    await expectAccessible(page);
  });

  test("a client cannot sign in on the adviser tab", async ({ page }) => {
    await page.goto("/login?userType=adviser");
    await page.getByLabel("Username").fill("demo.client");
    await page.getByLabel("Password", { exact: true }).fill(DEMO_PASSWORD);
    await page.getByRole("button", { name: "Login" }).click();
    await expect(page.getByText("Either your username or your password is incorrect.")).toBeVisible();
  });

  test("the success alerts of the query flags show", async ({ page }) => {
    await page.goto("/login?passwordChanged=true");
    await expect(page.getByText("Your password has now been changed. Please log in with your new password.")).toBeVisible();
    await page.goto("/login?usernameSent=true");
    await expect(page.getByText("Your username has been emailed to you")).toBeVisible();
  });
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
