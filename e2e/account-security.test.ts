import type { Page } from "@playwright/test";
import { DEMO_PASSWORD, expect, expectAccessible, expectStillWhenScriptsArrive, signIn, test } from "./fixtures";
import { codeSentAfter, copyUser, newestId, signInWithCode, totp } from "./platform";

// spec 002 "Preferences", "Security questions", "Change password" (§2, §4, §5, §8) and spec 000 §2
// and §4 "Additional verification": with and without JavaScript. Both projects share one platform
// database, so each journey that changes something uses a generated client of its own per project
// (clients no other journey signs in as) and leaves demo.* logins as seeded.

const ACCESS_DENIED =
  "You are not authorised to view the page that you requested. Please contact your adviser if this problem persists.";

function summary(page: Page) {
  return page.getByRole("alert").filter({ hasText: "There is a problem" });
}

function toast(page: Page, text: string) {
  return page.getByRole("status").filter({ hasText: text });
}

async function openAccountMenu(page: Page) {
  await page.getByText("My Account").click();
}

test.describe("change password", () => {
  // The boxes and the strength meter arrive with the page's scripts: the button must not move (decision 105).
  test("the Confirm password button stays where it is when the page's scripts arrive @js-only", async ({ page }) => {
    await signIn(page, "demo.client");
    await expect(page).toHaveURL(/\/clients\//);
    await expectStillWhenScriptsArrive(
      page,
      "/clients/change-password",
      page.getByRole("button", { name: "Confirm password" }),
      [page.getByLabel("Show new password"), page.getByText("Password strength is shown as you type.")],
    );
  });

  test("validation, a wrong current password, the policy, then changed and changed again", async ({
    page,
    request,
    javaScript,
  }) => {
    // a copy of a client of its own: the seeded password is shorter than a new one may be
    // (decision 171), so the journey cannot change it back
    const username = await copyUser(request, "demo.assets");
    await signIn(page, username);
    await expect(page).toHaveURL(/\/clients\//);
    await openAccountMenu(page);
    await page.getByRole("link", { name: "Change password" }).click();
    await expect(page).toHaveURL(/\/clients\/change-password$/);
    await expect(page.getByRole("heading", { level: 1, name: "Change password" })).toBeVisible();
    // guidance from the site setting passwordGuidance
    await expect(page.getByText(/at least 12 characters/i).first()).toBeVisible();
    await expect(page.getByLabel("Show current password")).toHaveCount(javaScript === "on" ? 1 : 0);
    await expectAccessible(page);

    const confirm = page.getByRole("button", { name: "Confirm password" });
    if (javaScript === "on") {
      // spec 002 §4: disabled while the form is invalid (the server says the same without JavaScript)
      await expect(confirm).toBeDisabled();
      await page.getByLabel("Current password", { exact: true }).fill("Not-my-pass-1");
      await expect(confirm).toBeDisabled();
    } else {
      await confirm.click();
      await expect(summary(page)).toContainText("Please enter your current password");
      await expect(summary(page)).toContainText("Please enter a password");
      await expectAccessible(page);
    }

    await page.getByLabel("Current password", { exact: true }).fill("Not-my-pass-1");
    await page.getByLabel("New password", { exact: true }).fill("Fresh-lapwing-pass-42");
    await expect(confirm).toBeEnabled();
    await confirm.click();
    await expect(summary(page)).toContainText("The current password is incorrect.");
    await expect(page.getByLabel("Current password", { exact: true })).toHaveValue("");
    await expect(page.getByLabel("New password", { exact: true })).toHaveValue("");
    // the cleared form is invalid again
    if (javaScript === "on") await expect(confirm).toBeDisabled();
    await expectAccessible(page);

    await page.getByLabel("Current password", { exact: true }).fill(DEMO_PASSWORD);
    await page.getByLabel("New password", { exact: true }).fill("Password2024!");
    await confirm.click();
    await expect(summary(page)).toContainText(
      "This password is too common or has appeared in a data breach. Choose a different one.",
    );

    if (javaScript === "on") {
      await page.getByLabel("New password", { exact: true }).fill("abc");
      await expect(page.getByText("Password strength: Very Weak")).toBeVisible();
      await page.getByLabel("Show new password").check();
      await expect(page.getByLabel("New password", { exact: true })).toHaveAttribute("type", "text");
      await page.getByLabel("Show new password").uncheck();
    }
    await page.getByLabel("Current password", { exact: true }).fill(DEMO_PASSWORD);
    await page.getByLabel("New password", { exact: true }).fill("Fresh-lapwing-pass-42");
    if (javaScript === "on") await expect(page.getByText("Password strength: Very Strong")).toBeVisible();
    await confirm.click();
    await expect(toast(page, "Password changed")).toBeVisible();
    await expect(page).toHaveURL(/\/clients\/change-password$/);
    await expectAccessible(page);

    // still signed in: change it again
    await page.getByLabel("Current password", { exact: true }).fill("Fresh-lapwing-pass-42");
    await page.getByLabel("New password", { exact: true }).fill("Second-orchard-pass-43");
    await confirm.click();
    await expect(toast(page, "Password changed")).toBeVisible();
  });
});

test.describe("security questions", () => {
  test("the rules, then saved and shown again without the answers", async ({ page, javaScript }) => {
    // every rule answered by the server without JavaScript, then the current password refused once
    test.slow();
    const username = javaScript === "on" ? "jose.nunez" : "kwame.patel";
    await signIn(page, username);
    await expect(page).toHaveURL(/\/clients\//);
    await openAccountMenu(page);
    await page.getByRole("link", { name: "Security questions" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Security questions" })).toBeVisible();
    const custom1 = page.getByLabel("Your own first question");
    if (javaScript === "on") await expect(custom1).toHaveCount(0);
    else await expect(custom1).toBeVisible();
    await expectAccessible(page);

    // spec 002 §5: Continue is disabled until the form is valid; without JavaScript the server
    // answers each rule with its message.
    const submit = page.getByRole("button", { name: "Continue" });
    if (javaScript === "on") {
      await expect(submit).toBeDisabled();
    } else {
      await submit.click();
      await expect(summary(page)).toContainText("Please enter a security question.");
      await expect(summary(page)).toContainText("Please enter an answer to your security question.");
      await expect(summary(page)).toContainText("Please enter your current password");
      await expectAccessible(page);
    }

    const first = page.getByLabel("First security question");
    const options = await first.locator("option").allTextContents();
    const [q1, q2] = [options[1]!, options[2]!];
    await first.selectOption({ label: q1 });
    await page.getByLabel("Second security question").selectOption({ label: q1 });
    await page.getByLabel("Answer to the first question").fill("Biscuit");
    await page.getByLabel("Answer to the second question").fill("Harrogate");
    if (javaScript === "on") {
      await expect(submit).toBeDisabled();
    } else {
      await submit.click();
      await expect(summary(page)).toContainText("Please select two different security questions.");
      // answers are secrets: the server never echoes them back
      await expect(page.getByLabel("Answer to the first question")).toHaveValue("");
    }

    await page.getByLabel("Second security question").selectOption({ label: "Other (write your own question)" });
    await expect(page.getByLabel("Your own second question")).toBeVisible();
    await page.getByLabel("Your own second question").fill("x".repeat(257));
    await page.getByLabel("Answer to the first question").fill("Biscuit");
    await page.getByLabel("Answer to the second question").fill("Harrogate");
    if (javaScript === "on") {
      // with the current password typed (decision 179), only the question's length holds Continue back
      const password = page.getByLabel("Current password", { exact: true });
      await password.fill(DEMO_PASSWORD);
      await expect(submit).toBeDisabled();
      await page.getByLabel("Your own second question").fill("x".repeat(256));
      await expect(submit).toBeEnabled();
      await password.fill("");
    } else {
      await submit.click();
      await expect(summary(page)).toContainText("Question needs to be at most 256 characters");
    }

    await page.getByLabel("Second security question").selectOption({ label: q2 });
    await page.getByLabel("Answer to the first question").fill("Biscuit");
    await page.getByLabel("Answer to the second question").fill("Harrogate");
    // decision 179: the current password first; Continue waits for it too
    const currentPassword = page.getByLabel("Current password", { exact: true });
    await expect(page.getByText("To change your security questions, enter your current password.")).toBeVisible();
    if (javaScript === "on") await expect(submit).toBeDisabled();
    await currentPassword.fill("Not-the-password-5");
    await expect(submit).toBeEnabled();
    await submit.click();
    await expect(summary(page)).toContainText("The current password is incorrect.");
    await expect(currentPassword).toHaveAttribute("aria-invalid", "true");
    await expect(currentPassword).toHaveValue("");
    await expect(page.getByLabel("Answer to the first question")).toHaveValue("");
    await expectAccessible(page);
    await page.getByLabel("Answer to the first question").fill("Biscuit");
    await page.getByLabel("Answer to the second question").fill("Harrogate");
    await currentPassword.fill(DEMO_PASSWORD);
    await expect(submit).toBeEnabled();
    await submit.click();
    await expect(toast(page, "Your security questions have been set.")).toBeVisible();
    await page.reload();
    await expect(page.getByLabel("First security question")).toHaveValue(q1);
    await expect(page.getByLabel("Second security question")).toHaveValue(q2);
    await expect(page.getByLabel("Answer to the first question")).toHaveValue("");
  });
});

test.describe("preferences", () => {
  test("change, cancel, save and reload", async ({ page, javaScript }) => {
    const username = javaScript === "on" ? "william.green" : "poppy.roberts";
    await signIn(page, username);
    await expect(page).toHaveURL(/\/clients\//);
    await openAccountMenu(page);
    await page.getByRole("link", { name: "Preferences" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Preferences" })).toBeVisible();
    await expect(page.getByRole("group", { name: "How we may contact you" })).toBeVisible();
    await expectAccessible(page);

    const sms = page.getByLabel("SMS (text message)");
    const post = page.getByLabel("Post");
    // exactly: the theme's 'Save theme' is on the page too (decision 203)
    const save = page.getByRole("button", { name: "Save", exact: true });
    const initialSms = await sms.isChecked();
    const initialPost = await post.isChecked();

    if (javaScript === "on") {
      // spec 002: Save waits for a change, and says why (issue 40)
      await expect(save).toBeDisabled();
      await expect(save).toHaveAccessibleDescription("Save and Cancel become available when you change a preference.");
      await sms.setChecked(!initialSms);
      await expect(save).toBeEnabled();
      await expect(page.getByText("Save and Cancel become available")).toHaveCount(0);
      await page.getByRole("button", { name: "Cancel" }).click();
      await expect(sms).toBeChecked({ checked: initialSms });
      await expect(save).toBeDisabled();
    } else {
      await expect(save).toBeEnabled();
      await sms.setChecked(!initialSms);
      await page.getByRole("link", { name: "Cancel" }).click();
      await expect(sms).toBeChecked({ checked: initialSms });
    }

    await sms.setChecked(!initialSms);
    await post.setChecked(!initialPost);
    await save.click();
    await expect(toast(page, "Your preferences have been updated.")).toBeVisible();
    await page.reload();
    await expect(sms).toBeChecked({ checked: !initialSms });
    await expect(post).toBeChecked({ checked: !initialPost });
    await expectAccessible(page);

    // as it was
    await sms.setChecked(initialSms);
    await post.setChecked(initialPost);
    await save.click();
    await expect(toast(page, "Your preferences have been updated.")).toBeVisible();
  });

  test("an adviser with a client in context sees them read-only", async ({ page }) => {
    await signIn(page, "demo.adviser", { adviser: true });
    await page.getByLabel("Client name").fill("Hartley");
    await page.getByRole("button", { name: "Search" }).click();
    await page.getByRole("button", { name: "Open Hartley, Eleanor" }).click();
    await expect(page).toHaveURL(/\/clients\/home$/);
    await page.goto("/clients/preferences");
    await expect(page.getByRole("heading", { level: 1, name: "Preferences" })).toBeVisible();
    await expect(page.getByText(/log in to the planning platform/)).toBeVisible();
    await expect(page.getByRole("checkbox")).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Save", exact: true })).toHaveCount(0);
    // the adviser's own theme is theirs to choose (decision 203)
    await expect(page.getByRole("button", { name: "Save theme" })).toBeVisible();
    await expectAccessible(page);
  });
});

test.describe("who may use the account security pages", () => {
  test("an adviser in a client's context gets Access Denied on the client-only pages", async ({ page }) => {
    await signIn(page, "demo.adviser", { adviser: true });
    await page.getByLabel("Client name").fill("Hartley");
    await page.getByRole("button", { name: "Search" }).click();
    await page.getByRole("button", { name: "Open Hartley, Eleanor" }).click();
    await expect(page).toHaveURL(/\/clients\/home$/);
    await openAccountMenu(page);
    await expect(page.getByRole("link", { name: "Change password" })).toHaveCount(0);
    for (const path of [
      "/clients/change-password",
      "/clients/security-questions",
      "/clients/additional-verification",
    ]) {
      const response = await page.goto(path);
      expect(response?.status(), path).toBe(403);
      await expect(page.getByText(ACCESS_DENIED)).toBeVisible();
    }
    await expectAccessible(page);
  });

  test("a client who does not log in with MFA gets Access Denied on additional verification", async ({ page }) => {
    await signIn(page, "demo.client");
    await expect(page).toHaveURL(/\/clients\//);
    await openAccountMenu(page);
    await expect(page.getByRole("link", { name: "Additional verification" })).toHaveCount(0);
    const response = await page.goto("/clients/additional-verification");
    expect(response?.status()).toBe(403);
    await expect(page.getByText(ACCESS_DENIED)).toBeVisible();
  });
});

test.describe("additional verification", () => {
  test("a client with one method sees the single-method view", async ({ page, request }) => {
    await signInWithCode(page, request, await copyUser(request, "demo.single"));
    await openAccountMenu(page);
    await page.getByRole("link", { name: "Additional verification" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Additional verification" })).toBeVisible();
    await expect(
      page.getByText(/Your additional verification method is: Email Address \(f\*\*\*@example\.com\)/),
    ).toBeVisible();
    await expect(page.getByRole("link", { name: "Contact your adviser" })).toHaveAttribute(
      "href",
      "/clients/adviser-details",
    );
    await expect(page.getByRole("link", { name: "Return to home" })).toBeVisible();
    await expect(page.getByRole("radio")).toHaveCount(0);
    await expectAccessible(page);
  });

  test("change the method: the rules, the enrolment problem, an invalid code, then changed and back", async ({
    page,
    request,
    javaScript,
  }) => {
    // demo.mfa: MFA by sms with a mobile and no email on record; each run changes its own copy.
    const username = await copyUser(request, "demo.mfa");
    await signInWithCode(page, request, username);
    await page.goto("/clients/additional-verification");
    const group = page.getByRole("group", { name: "Additional verification method" });
    await expect(group.getByRole("radio")).toHaveCount(3);
    await expect(group.getByRole("radio", { name: /Phone Number.*current/ })).toBeChecked();
    // the strongest first, the text message last (ASVS V2.7.1, decision 178)
    await expect(group.getByRole("radio").first()).toHaveAccessibleName(/Software token/);
    await expect(group.getByRole("radio").last()).toHaveAccessibleName(/Phone Number/);
    const save = page.getByRole("button", { name: "Save" });
    if (javaScript === "on") {
      await expect(save).toBeDisabled();
      await expect(page.getByRole("button", { name: "Cancel" })).toBeDisabled();
    }
    await expectAccessible(page);

    // no email on record: the enrolment problem
    await group.getByRole("radio", { name: /Email Address/ }).check();
    if (javaScript === "off") {
      await save.click();
      await expect(summary(page)).toContainText("Password is required");
    }
    await page.getByLabel("Password", { exact: true }).fill(DEMO_PASSWORD);
    await save.click();
    await expect(
      page.getByText(
        "There is a problem with your registered phone number or email address. Please contact your adviser for assistance.",
      ),
    ).toBeVisible();

    // the software token: the key, then an invalid code, Request new code, and the right code
    await page
      .getByRole("group", { name: "Additional verification method" })
      .getByRole("radio", { name: /Software token/ })
      .check();
    await page.getByLabel("Password", { exact: true }).fill(DEMO_PASSWORD);
    await page.getByRole("button", { name: "Save" }).click();
    await expect(page.getByRole("heading", { level: 2, name: "Validate your device" })).toBeVisible();
    const secret = (await page.locator("code").textContent())!.trim();
    await expectAccessible(page);
    const validate = page.getByRole("button", { name: "Validate" });
    // spec 000 §5: the code's submit is disabled while the code is empty
    if (javaScript === "on") {
      await expect(validate).toBeDisabled();
    } else {
      await validate.click();
      await expect(summary(page)).toContainText("MFA Code required");
    }
    await page.getByLabel("Security code").fill(totp(secret) === "000000" ? "111111" : "000000");
    await expect(validate).toBeEnabled();
    await page.getByRole("button", { name: "Validate" }).click();
    await expect(page.getByRole("heading", { name: "The code is invalid" })).toBeVisible();
    await expectAccessible(page);
    await page.getByRole("button", { name: "Request new code" }).click();
    await expect(page.getByLabel("Security code")).toHaveValue("");
    if (javaScript === "on") await expect(validate).toBeDisabled();
    await expectAccessible(page);
    await page.getByLabel("Security code").fill(totp(secret));
    await page.getByRole("button", { name: "Validate" }).click();
    await expect(page.getByText("Method changed successfully")).toBeVisible();
    await expectAccessible(page);

    // back to sms, with the code sent to the phone
    await page.goto("/clients/additional-verification");
    await page
      .getByRole("group", { name: "Additional verification method" })
      .getByRole("radio", { name: /Phone Number/ })
      .check();
    await page.getByLabel("Password", { exact: true }).fill(DEMO_PASSWORD);
    const before = await newestId(request, username);
    await page.getByRole("button", { name: "Save" }).click();
    await expect(page.getByText(/We have sent a security code to \+\*+\d{4}/)).toBeVisible();
    await page.getByLabel("Security code").fill((await codeSentAfter(request, username, before)).code);
    await page.getByRole("button", { name: "Validate" }).click();
    await expect(page.getByText("Method changed successfully")).toBeVisible();
  });
});
