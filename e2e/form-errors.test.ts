import type { Page } from "@playwright/test";
import { errorSummary, expect, expectAccessible, scriptsReady, signIn, test } from "./fixtures";
import { copyUser, signInWithCode } from "./platform";

// Issue 25, items 1 and 10 (docs/decisions/116-form-errors-after-a-submit.md): a form says what is
// wrong when it is sent, never when a field is left; the error summary takes the focus only after a
// submit; typing in a field with an error checks it again without moving the focus. A button the
// spec disables (change password, additional verification, the analysis 'Apply' of spec 001 §4)
// says why beside it while it is disabled; without JavaScript nothing is disabled and the server
// answers with the messages.

const MESSAGES = "/clients/documents-and-messages";
const summary = (page: Page) => errorSummary(page);

async function signInClient(page: Page) {
  await signIn(page, "demo.client");
  await expect(page).toHaveURL(/\/clients\/home$/);
}

test.describe("correcting a form", () => {
  test("leaving an empty Subject keeps the focus where the user put it; Send shows what is wrong", async ({
    page,
    javaScript,
  }) => {
    await signInClient(page);
    await page.goto(`${MESSAGES}?compose=true`);
    const subject = page.getByLabel("Subject", { exact: true });
    const body = page.getByRole("textbox", { name: "Message", exact: true });
    await subject.focus();
    await page.keyboard.press("Tab");
    await expect(body).toBeFocused();
    await body.pressSequentially("About my pension");
    await expect(body).toBeFocused();
    await expect(summary(page)).toHaveCount(0);
    await expect(page.getByText("Please enter a message subject.")).toHaveCount(0);

    await page.getByRole("button", { name: "Send" }).click();
    await expect(summary(page).getByRole("link", { name: "Please enter a message subject." })).toBeVisible();
    if (javaScript === "on") await expect(summary(page)).toBeFocused();
    await expect(body).toHaveValue("About my pension");
    await expectAccessible(page);

    await summary(page).getByRole("link", { name: "Please enter a message subject." }).click();
    await expect(subject).toBeFocused();
    if (javaScript === "on") {
      // revalidated as the user types, and the focus stays in the field
      await subject.pressSequentially("Pension");
      await expect(subject).toBeFocused();
      await expect(subject).toHaveValue("Pension");
      await expect(summary(page)).toHaveCount(0);
      await expect(page.getByRole("button", { name: "Send" })).toBeEnabled();
    }
  });

  test("the adviser's client search says nothing when a date of birth is left half typed, and tells on Search", async ({
    page,
    javaScript,
  }) => {
    await signIn(page, "demo.adviser", { adviser: true });
    await expect(page).toHaveURL(/\/advisers\//);
    await page.goto("/advisers/clients");
    const dob = page.getByLabel("Date of birth");
    await dob.fill("31-02");
    await page.keyboard.press("Tab");
    await expect(dob).not.toBeFocused();
    await expect(summary(page)).toHaveCount(0);
    await page.getByRole("button", { name: "Search" }).click();
    await expect(summary(page)).toBeVisible();
    if (javaScript === "on") await expect(summary(page)).toBeFocused();
    await expectAccessible(page);
  });

  test("'Apply' in 'Filter options' says why it is disabled while the dates are wrong; without JavaScript it answers with the messages", async ({
    page,
    javaScript,
  }) => {
    await signIn(page, "demo.client", { path: "/login?redirectTo=/clients/analysis" });
    await expect(page.getByRole("heading", { level: 1, name: "All portfolios" })).toBeVisible();
    let form;
    if (javaScript === "on") {
      await page.getByRole("button", { name: "Filter options" }).click();
      form = page.getByRole("dialog", { name: "Filter options" });
    } else {
      await page.locator("summary", { hasText: "Filter options" }).click();
      form = page.locator(".filter-options__form");
    }
    await form.getByLabel("Custom", { exact: true }).check();
    const invalidFormat = 'Invalid date format, please enter the date in the format "DD-MM-YYYY"';
    await form.getByLabel("From", { exact: true }).fill("31-02-2025");
    await form.getByLabel("To", { exact: true }).fill("");
    await form.getByLabel("To", { exact: true }).focus();
    const apply = page.getByRole("button", { name: "Apply" });
    if (javaScript === "on") {
      // spec 001 §4: disabled while the custom dates are invalid, and the reason is beside it
      await expect(apply).toBeDisabled();
      const reason = form.locator("#filter-apply-reason");
      await expect(reason).toContainText("Apply is available once the custom dates are valid.");
      await expect(reason).toContainText(`From: ${invalidFormat}`);
      await expect(reason).toContainText("To: Date is required");
      await expect(apply).toHaveAttribute("aria-describedby", "filter-apply-reason");
      // the field typed in says what is wrong at the field; the focus stays where the user put it
      await expect(form.locator("#analysis-range-from-error")).toContainText(invalidFormat);
      await expect(form.getByLabel("To", { exact: true })).toBeFocused();
      await expect(summary(page)).toHaveCount(0);
    } else {
      await expect(apply).toBeEnabled();
      await apply.click();
      const alert = summary(page);
      await expect(alert.getByRole("link", { name: invalidFormat })).toBeVisible();
      await expect(alert.getByRole("link", { name: "Date is required" })).toBeVisible();
    }
    await expect(page.getByLabel("From", { exact: true })).toHaveValue("31-02-2025");
    await expectAccessible(page);
    // corrected as the user types, then applied
    await page.getByLabel("From", { exact: true }).fill("01-01-2025");
    await page.getByLabel("To", { exact: true }).fill("01-06-2025");
    if (javaScript === "on") {
      await expect(page.locator("#filter-apply-reason")).toHaveCount(0);
      await expect(page.locator("#analysis-range-from-error")).toHaveCount(0);
    }
    await expect(page.getByRole("button", { name: "Apply" })).toBeEnabled();
    await page.getByRole("button", { name: "Apply" }).click();
    await expect(page).toHaveURL(/range=custom&from=01-01-2025&to=01-06-2025/);
  });

  test("a custom start before the since-inception date is refused with the spec's message, what was typed kept", async ({
    page,
    javaScript,
  }) => {
    // spec 001 §5: "The start input minimum is the since-inception date"
    await signIn(page, "demo.client", {
      path: "/login?redirectTo=" + encodeURIComponent("/clients/analysis?range=custom&from=01-01-2020&to=01-06-2025"),
    });
    const beforeOpening = "The date range selected is earlier than the portfolio / account opening date.";
    const link = summary(page).getByRole("link", { name: beforeOpening });
    await expect(link).toBeVisible();
    await expect(page.locator("#analysis-range-from-error")).toContainText(beforeOpening);
    await expect(page.getByLabel("From", { exact: true })).toHaveValue("01-01-2020");
    await expect(page.getByLabel("To", { exact: true })).toHaveValue("01-06-2025");
    await expect(page.getByLabel("From", { exact: true })).toHaveAccessibleDescription(
      /The earliest date with data is \d{2}-\d{2}-\d{4}/,
    );
    await expectAccessible(page);
    await expect(link).toHaveAttribute("href", "#analysis-range-from");
    if (javaScript === "on") {
      // typing a start the since-inception date allows clears the message at the field
      await scriptsReady(page);
      const hint = await page.locator("#analysis-range-from-hint").innerText();
      const earliest = /earliest date with data is (\d{2}-\d{2}-\d{4})/.exec(hint)![1]!;
      await page.getByLabel("From", { exact: true }).fill(earliest);
      await expect(page.locator("#analysis-range-from-error")).toHaveCount(0);
    }
  });

  test("a disabled 'Confirm password' says beside it why @js-only", async ({ page }) => {
    await signIn(page, "george.patel");
    await expect(page).toHaveURL(/\/clients\//);
    await page.goto("/clients/change-password");
    const confirm = page.getByRole("button", { name: "Confirm password" });
    await expect(confirm).toBeDisabled();
    const reason =
      "Confirm password is available once both passwords are entered and the new password meets the password rules.";
    await expect(page.getByText(reason)).toBeVisible();
    await expect(confirm).toHaveAccessibleDescription(reason);
    await expectAccessible(page);
  });

  test("disabled 'Save' and 'Validate' on additional verification say beside them why @js-only", async ({
    page,
    request,
  }) => {
    const username = await copyUser(request, "demo.mfa");
    await signInWithCode(page, request, username);
    await page.goto("/clients/additional-verification");
    const save = page.getByRole("button", { name: "Save" });
    await expect(save).toBeDisabled();
    await expect(save).toHaveAccessibleDescription("Choose a different method to save it.");
    await expect(page.getByText("Choose a different method to save it.")).toBeVisible();
    await page
      .getByRole("group", { name: "Additional verification method" })
      .getByRole("radio", { name: /Software token/ })
      .check();
    await expect(save).toHaveAccessibleDescription("Enter your password to save the new method.");
    await expectAccessible(page);
    await page.getByLabel("Password", { exact: true }).fill("Demo-pass-1");
    await expect(save).toBeEnabled();
    await expect(page.getByText("Enter your password to save the new method.")).toHaveCount(0);
    await save.click();
    await expect(page.getByRole("heading", { level: 2, name: "Validate your device" })).toBeVisible();
    const validate = page.getByRole("button", { name: "Validate" });
    await expect(validate).toBeDisabled();
    await expect(validate).toHaveAccessibleDescription("Enter the security code to validate your device.");
    await expectAccessible(page);
  });

  test("a disabled 'Continue' at the sign-in code step and on the security questions says beside it why @js-only", async ({
    page,
    request,
  }) => {
    const username = await copyUser(request, "demo.mfa");
    await signIn(page, username);
    await expect(page.getByLabel("Security code")).toBeVisible();
    const next = page.getByRole("button", { name: "Continue" });
    await expect(next).toBeDisabled();
    await expect(next).toHaveAccessibleDescription("Enter the security code to continue.");
    await expect(page.getByText("Enter the security code to continue.")).toBeVisible();
    await expectAccessible(page);
    await page.getByLabel("Security code").fill("123456");
    await expect(next).toBeEnabled();
    await expect(page.getByText("Enter the security code to continue.")).toHaveCount(0);
  });
});
