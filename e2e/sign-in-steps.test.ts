import type { Page } from "@playwright/test";
import { DEMO_PASSWORD, expect, expectAccessible, signIn, test } from "./fixtures";
import { codeSentAfter, copyUser, newestId, totpAt as totp } from "./platform";

// spec 000 §2 "Login content swaps by login status", §4 "Login flow", §8 "Sign-in and security
// messages": each step of a sign-in, with and without JavaScript. Both projects run against one
// platform database, so a journey either uses a user of its own per project, or steps that leave
// the user as it was (a right code or right characters clear the failure count).

function wrongCode(right: string): string {
  return right === "000000" ? "111111" : "000000";
}

async function enterCode(page: Page, code: string) {
  await page.getByLabel("Security code").fill(code);
  await page.getByRole("button", { name: "Continue" }).click();
}

const BAD_CODE =
  "There was an error with the authentication code you entered. A new code has been sent to you. Please try again.";

test.describe("sign-in steps", () => {
  test("a security code: the bad-code text, then a new code signs in (MfaRequired)", async ({
    page,
    request,
    javaScript,
  }) => {
    // A copy per run: the outbox of each is its own.
    const username = await copyUser(request, "demo.mfa");
    const destination = "+********0123";
    const before = await newestId(request, username);
    await signIn(page, username);
    await expect(page.getByRole("heading", { level: 1, name: "Enter your security code" })).toBeVisible();
    await expect(page.getByText(`We have sent a security code to ${destination}.`)).toBeVisible();
    await expect(page).toHaveURL(/\/login$/);
    const first = await codeSentAfter(request, username, before);
    await expectAccessible(page);

    // spec 000 §5: submit disabled while the code is empty; without JavaScript the server says so
    const submit = page.getByRole("button", { name: "Continue" });
    if (javaScript === "on") {
      await expect(submit).toBeDisabled();
      await page.getByLabel("Security code").fill("1");
      await expect(submit).toBeEnabled();
      await page.getByLabel("Security code").fill("");
      await expect(submit).toBeDisabled();
    } else {
      await submit.click();
      await expect(page.getByRole("alert").filter({ hasText: "There is a problem" })).toContainText(
        "A security code is required",
      );
    }

    await enterCode(page, wrongCode(first.code));
    await expect(page.getByText(BAD_CODE).first()).toBeVisible();
    await expect(page.getByLabel("Security code")).toHaveValue("");
    await expectAccessible(page);

    const second = await codeSentAfter(request, username, first.id);
    await enterCode(page, second.code.replace(/^(\d{3})/, "$1 "));
    await expect(page).toHaveURL(/\/clients/);
  });

  test("Request new code sends another code, and Return to login resets", async ({ page, request }) => {
    const username = await copyUser(request, "demo.mfa");
    const before = await newestId(request, username);
    await signIn(page, username);
    const first = await codeSentAfter(request, username, before);
    await page.getByRole("button", { name: "Request new code" }).click();
    await expect(page.getByText("A new code has been sent to you.")).toBeVisible();
    await expectAccessible(page);
    await codeSentAfter(request, username, first.id);
    await page.getByRole("button", { name: "Return to login" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Log in to Client Online" })).toBeVisible();
    // The step is gone: a fresh visit shows the login form.
    await page.goto("/login");
    await expect(page.getByRole("heading", { level: 1, name: "Log in to Client Online" })).toBeVisible();
  });

  test("an expired sign-in says 'User session not found' and starts again", async ({ page, context, request }) => {
    const username = await copyUser(request, "demo.mfa");
    const before = await newestId(request, username);
    await signIn(page, username);
    const sent = await codeSentAfter(request, username, before);
    await expect(page.getByRole("heading", { level: 1, name: "Enter your security code" })).toBeVisible();
    // The login-state cookie lives as long as the ticket (10 minutes): its end is the same to the user.
    await context.clearCookies({ name: "__login_state" });
    await enterCode(page, sent.code);
    await expect(page.getByText("User session not found. Please log in again.")).toBeVisible();
    await expect(page.getByLabel("Username")).toBeVisible();
    await expectAccessible(page);
  });

  test("a software token: the code the app makes (demo.token)", async ({ page, request }) => {
    await signIn(page, await copyUser(request, "demo.token"));
    await expect(page.getByRole("heading", { level: 1, name: "Enter your security code" })).toBeVisible();
    await expect(page.getByText("Enter the code your authenticator app shows for Client Online.")).toBeVisible();
    await expect(page.getByRole("button", { name: "Request new code" })).toHaveCount(0);
    await expectAccessible(page);
    // Each time step is usable once (the other project may have used this one): the next step is
    // inside the platform's window of one step either side.
    const step = Math.floor(Date.now() / 30_000);
    await enterCode(page, totp("GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ", step));
    const landed = await page
      .waitForURL(/\/clients/, { timeout: 5_000 })
      .then(() => true)
      .catch(() => false);
    if (!landed) {
      await expect(
        page.getByText("There was an error with the authentication code you entered. Please try again.").first(),
      ).toBeVisible();
      await enterCode(page, totp("GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ", step + 1));
      await expect(page).toHaveURL(/\/clients/);
    }
  });

  test("memorable word: wrong characters, new positions, then the right ones (demo.memorable)", async ({
    page,
    request,
    javaScript,
  }) => {
    const word = "chestnut";
    await signIn(page, await copyUser(request, "demo.memorable"));
    await expect(page.getByRole("heading", { level: 1, name: "Memorable word" })).toBeVisible();
    await expect(page.getByText("Hint: The tree in your first garden")).toBeVisible();
    const positions = async () => {
      const labels = await page.locator(".memorable label").allTextContents();
      return labels.map((l) => Number(/Character (\d+)/.exec(l)?.[1]));
    };
    const first = await positions();
    expect(first).toHaveLength(3);
    for (const p of first) await expect(page.getByLabel(`Character ${p}`)).toHaveAttribute("maxlength", "1");
    await expectAccessible(page);

    // spec 000 §5: submit is enabled only when all three characters are non-blank
    const submit = page.getByRole("button", { name: "Continue" });
    const wrong = (p: number) => (word[p - 1] === "z" ? "y" : "z");
    if (javaScript === "on") {
      await expect(submit).toBeDisabled();
      await page.getByLabel(`Character ${first[0]}`).fill(wrong(first[0]!));
      await page.getByLabel(`Character ${first[1]}`).fill(wrong(first[1]!));
      await page.getByLabel(`Character ${first[2]}`).fill(" ");
      await expect(submit).toBeDisabled();
    }
    for (const p of first) await page.getByLabel(`Character ${p}`).fill(wrong(p));
    await expect(submit).toBeEnabled();
    await submit.click();
    const incorrect = page.getByText("Incorrect memorable word characters. Please try again with the new positions.");
    await expect(incorrect).toBeVisible();
    await expect.poll(positions).not.toEqual(first);
    const second = await positions();
    await expectAccessible(page);
    if (javaScript === "on") await expect(submit).toBeDisabled();

    for (const p of second) {
      await expect(page.getByLabel(`Character ${p}`)).toHaveValue("");
      await page.getByLabel(`Character ${p}`).fill(word[p - 1]!);
      // spec 000 §4: memorable word errors clear on typing (with JavaScript; without it the page
      // stays as the server sent it until the next post)
      if (javaScript === "on") await expect(incorrect).toHaveCount(0);
      else await expect(incorrect).toBeVisible();
    }
    await submit.click();
    await expect(page).toHaveURL(/\/clients/);
  });

  test("a memorable-word login without a word cannot go on (demo.noword)", async ({ page }) => {
    await signIn(page, "demo.noword");
    await expect(
      page.getByText(
        "Could not retrieve your memorable word letter selection. Please contact our investor support team for assistance.",
      ),
    ).toBeVisible();
    await expect(page.getByRole("button", { name: "Continue" })).toHaveCount(0);
    await expectAccessible(page);
    await page.getByRole("button", { name: "Return to login" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Log in to Client Online" })).toBeVisible();
  });

  test("enrolling a device: choose, a wrong code, Request new code, validate, verify once more (demo.enrol)", async ({
    page,
    request,
    javaScript,
  }) => {
    const username = await copyUser(request, "demo.enrol");
    await signIn(page, username);
    const heading = page.getByRole("heading", { level: 1 });
    await expect(heading).not.toHaveText("Log in to Client Online");
    await expect(heading).toHaveText("Additional verification");
    const group = page.getByRole("group", { name: "Verification method" });
    await expect(group.getByRole("radio")).toHaveCount(3);
    // the strongest first, the text message last (ASVS V2.7.1, decision 178); none chosen for the user
    await expect(group.getByRole("radio").first()).toHaveAccessibleName(/Authenticator app/);
    await expect(group.getByRole("radio").last()).toHaveAccessibleName(/Phone Number/);
    for (const radio of await group.getByRole("radio").all()) await expect(radio).not.toBeChecked();
    await expectAccessible(page);

    await page.getByRole("button", { name: "Continue" }).click();
    await expect(page.getByRole("alert").filter({ hasText: "There is a problem" })).toContainText(
      "MFA method required",
    );

    const label = javaScript === "on" ? "Phone Number" : "Email Address";
    const before = await newestId(request, username);
    await group.getByLabel(label).check();
    await page.getByRole("button", { name: "Continue" }).click();
    await expect(heading).toHaveText("Validate your device");
    const sent = await codeSentAfter(request, username, before);
    await expectAccessible(page);

    // A wrong code at device validation: the invalid-code page (spec 000 §4 step 4).
    await enterCode(page, wrongCode(sent.code));
    await expect(heading).toHaveText("Validate your device");
    await expect(
      page.getByText(
        "Sorry, there was a problem with the authentication. You entered an incorrect code. Please request another code and try again.",
      ),
    ).toBeVisible();
    await expectAccessible(page);
    await page.getByRole("button", { name: "Request new code" }).click();
    await expect(page.getByLabel("Security code")).toBeVisible();
    const resent = await codeSentAfter(request, username, sent.id);
    await enterCode(page, resent.code);

    // Enrolled: verify once more with a fresh code.
    await expect(
      page.getByText(
        "Your device has been linked. You must now verify once more with a new security code to finish logging in.",
      ),
    ).toBeVisible();
    await expectAccessible(page);
    const again = await codeSentAfter(request, username, resent.id);
    await enterCode(page, again.code);
    await expect(page).toHaveURL(/\/clients/);
  });

  test("a password on the common and breached list: after the code, a new one is asked for, saying why (V2.1.7)", async ({
    page,
    request,
  }) => {
    // decision 180: a password set before the policy that is now on the list signs in, and is
    // changed before the sign-in completes, after the second factor
    const common = "Password123!";
    const username = await copyUser(request, "demo.mfa", { password: common });
    const before = await newestId(request, username);
    await page.goto("/login");
    await page.getByLabel("Username").fill(username);
    await page.getByLabel("Password", { exact: true }).fill(common);
    await page.getByRole("button", { name: "Login", exact: true }).click();
    const heading = page.getByRole("heading", { level: 1 });
    await expect(heading).toHaveText("Enter your security code");
    await enterCode(page, (await codeSentAfter(request, username, before)).code);

    await expect(heading).toHaveText("Change Password");
    await expect(
      page.getByText(
        "Your password is on a list of common passwords and passwords that have appeared in data breaches, so someone else could guess it.",
      ),
    ).toBeVisible();
    await expect(page.getByText("You need to choose a new password before you continue.")).toBeVisible();
    await expectAccessible(page);
    const newPasswordField = page.getByLabel("New password", { exact: true });
    await newPasswordField.fill("Password1234!");
    await page.getByRole("button", { name: "Change password" }).click();
    await expect(
      page.getByText("This password is too common or has appeared in a data breach. Choose a different one.").first(),
    ).toBeVisible();
    await expect(newPasswordField).toHaveValue("");
    await expectAccessible(page);
    await newPasswordField.fill("Lapwing-orchard-kettle-4");
    await page.getByRole("button", { name: "Change password" }).click();
    await expect(page).toHaveURL(/\/clients/);
  });

  test("a new user: change password, terms (Decline resets), security questions (demo.newuser)", async ({
    page,
    request,
    javaScript,
  }) => {
    const username = await copyUser(request, "demo.newuser");
    await signIn(page, username);
    const heading = page.getByRole("heading", { level: 1 });
    await expect(heading).toHaveText("Change Password");
    // The Change Password form: the site's guidance (site setting passwordGuidance)
    await expect(
      page.getByText(
        "Use at least 12 characters: a few unrelated words make a strong password that is easy to remember.",
      ),
    ).toBeVisible();
    await expectAccessible(page);

    const newPasswordField = page.getByLabel("New password", { exact: true });
    const change = page.getByRole("button", { name: "Change password" });
    // spec 000 §5: the change-password button stays disabled until the form is valid
    if (javaScript === "on") await expect(change).toBeDisabled();
    // The platform's password policy, beside the field.
    await newPasswordField.fill("short1");
    await expect(change).toBeEnabled();
    // The shared strength meter and show-password box, only while JavaScript runs (spec 002 §2, §5).
    const meter = page.locator(".password-strength");
    if (javaScript === "on") {
      await expect(meter).toContainText(/Very Weak|Weak|Medium|Strong|Very Strong/);
      await page.getByLabel("Show new password").check();
      await expect(newPasswordField).toHaveAttribute("type", "text");
      await page.getByLabel("Show new password").uncheck();
      await expect(newPasswordField).toHaveAttribute("type", "password");
    } else {
      // their places are kept, unseen and unheard (decision 105)
      await expect(meter).toBeHidden();
      await expect(page.getByLabel("Show new password")).toHaveCount(0);
      await expect(page.getByRole("checkbox")).toHaveCount(0);
    }
    await change.click();
    await expect(page.getByText("The password must be at least 12 characters long.").first()).toBeVisible();
    await expect(newPasswordField).toHaveAttribute("aria-invalid", "true");
    await expect(newPasswordField).toHaveValue("");
    if (javaScript === "on") await expect(change).toBeDisabled();
    await expectAccessible(page);
    const newPassword = "Aisha-lapwing-orchard-2";
    await newPasswordField.fill(newPassword);
    await change.click();

    await expect(heading).toHaveText("Terms of use");
    await expect(page.getByRole("region", { name: "Terms of use text" })).toContainText("About these terms");
    await expectAccessible(page);
    await page.getByRole("button", { name: "Decline" }).click();
    await expect(heading).toHaveText("Log in to Client Online");
    await page.goto("/login");
    await expect(heading).toHaveText("Log in to Client Online");

    // The password is changed; the terms are asked again.
    await page.getByLabel("Username").fill(username);
    await page.getByLabel("Password", { exact: true }).fill(newPassword);
    await page.getByRole("button", { name: "Login", exact: true }).click();
    await expect(heading).toHaveText("Terms of use");
    await page.getByRole("button", { name: "Agree" }).click();

    await expect(heading).toHaveText("Security questions");
    await expectAccessible(page);
    const firstQuestion = page.getByLabel("Question 1", { exact: true });
    const options = await firstQuestion.locator("option").allTextContents();
    // decision 053: with JavaScript the own question's input shows only while 'Other' is chosen;
    // without it, it is always there with its hint
    const ownQuestion = page.getByLabel("Your own question 2", { exact: true });
    if (javaScript === "on") {
      await expect(ownQuestion).toBeHidden();
      await page.getByLabel("Question 2", { exact: true }).selectOption({ label: "Other" });
      await expect(ownQuestion).toBeVisible();
    } else {
      await expect(ownQuestion).toBeVisible();
      await expect(page.getByText("Only if you chose Other.").first()).toBeVisible();
    }
    await firstQuestion.selectOption({ label: options[1]! });
    await page.getByLabel("Question 2", { exact: true }).selectOption({ label: options[1]! });
    if (javaScript === "on") await expect(ownQuestion).toBeHidden();
    await page.getByLabel("Answer 1", { exact: true }).fill("Blue bicycle");
    await page.getByLabel("Answer 2", { exact: true }).fill("Aunt Mary");
    // spec 002 §5: Continue is disabled until the form is valid; without JavaScript the server says why
    const continueButton = page.getByRole("button", { name: "Continue" });
    if (javaScript === "on") {
      await expect(continueButton).toBeDisabled();
    } else {
      await continueButton.click();
      await expect(page.getByRole("alert").filter({ hasText: "There is a problem" })).toContainText(
        "Please select two different security questions.",
      );
      await expectAccessible(page);
    }
    await page.getByLabel("Question 2", { exact: true }).selectOption({ label: options[2]! });
    await page.getByLabel("Answer 1", { exact: true }).fill("Blue bicycle");
    await page.getByLabel("Answer 2", { exact: true }).fill("Aunt Mary");
    await page.getByRole("button", { name: "Continue" }).click();
    await expect(page).toHaveURL(/\/clients/);
  });

  test("five wrong passwords disable the account (demo.lockout)", async ({ page, request }) => {
    const username = await copyUser(request, "demo.lockout");
    await page.goto("/login");
    for (let attempt = 1; attempt <= 5; attempt++) {
      await page.getByLabel("Username").fill(username);
      await page.getByLabel("Password", { exact: true }).fill(`wrong-${attempt}`);
      // Each answer is awaited: the alert of the previous attempt reads the same.
      await Promise.all([
        page.waitForResponse((r) => r.request().method() === "POST" && new URL(r.url()).pathname === "/login"),
        page.getByRole("button", { name: "Login", exact: true }).click(),
      ]);
      // the answer is on the page once the password is cleared (with JavaScript that render comes
      // after the response, once the loaders have run again)
      await expect(page.getByLabel("Password", { exact: true })).toHaveValue("");
      const text = attempt < 5 ? "Either your username or your password is incorrect." : "Account has been disabled.";
      await expect(page.getByRole("alert").filter({ hasText: text })).toBeVisible();
    }
    await expectAccessible(page);
    // Disabled stays disabled, even with the right password.
    await page.getByLabel("Password", { exact: true }).fill(DEMO_PASSWORD);
    await page.getByRole("button", { name: "Login", exact: true }).click();
    await expect(page.getByRole("alert").filter({ hasText: "Account has been disabled." })).toBeVisible();
  });

  test("Help with logging in is on the client tab only", async ({ page }) => {
    await page.goto("/login");
    await expect(page.getByRole("link", { name: "Help with logging in" })).toHaveAttribute("href", "/login/help");
    await page.goto("/login?userType=adviser");
    await expect(page.getByRole("link", { name: "Help with logging in" })).toHaveCount(0);
  });
});
