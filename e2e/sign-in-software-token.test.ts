import type { Page } from "@playwright/test";
import { expect, expectAccessible, signIn, test } from "./fixtures";
import { copyUser, newestId, outbox, totpAt } from "./platform";

// spec 000 §4 "Login flow" steps 3 and 4: a user who must enrol a device chooses a method
// (MfaEnrolmentLinkDevice), validates the device with its code (MfaEnrolmentValidateDevice,
// auth/tfa/device then auth/tfa/validate), and after enrolling verifies once more. Here the method
// is the software token: the page shows the key, and the codes are the ones an authenticator app
// would make from it (RFC 6238, docs/decisions/040). Each run enrols its own copy of demo.enrol.

const step = () => Math.floor(Date.now() / 30_000);

async function enterCode(page: Page, code: string) {
  await page.getByLabel("Security code").fill(code);
  await page.getByRole("button", { name: "Continue" }).click();
}

test.describe("enrolling a software token at sign-in", () => {
  test("choose the authenticator app, validate it with the app's code, verify once more, signed in (demo.enrol)", async ({
    page,
    request,
  }) => {
    const username = await copyUser(request, "demo.enrol");
    const sentBefore = await newestId(request, username);
    await signIn(page, username);

    // MfaEnrolmentLinkDevice: choose a method
    const heading = page.getByRole("heading", { level: 1 });
    await expect(heading).toHaveText("Additional verification");
    await expect(page.getByText("Choose how you would like to receive your security codes.")).toBeVisible();
    const group = page.getByRole("group", { name: "Verification method" });
    await expect(group.getByRole("radio")).toHaveCount(3);
    await expectAccessible(page);
    await group.getByRole("radio", { name: /Authenticator app/ }).check();
    await page.getByRole("button", { name: "Continue" }).click();

    // MfaEnrolmentValidateDevice: the key to add to the app, and no code sent anywhere
    await expect(heading).toHaveText("Validate your device");
    await expect(page.getByText("Enter the code your authenticator app shows for Client Online.")).toBeVisible();
    await expect(
      page.getByText(
        "Add Client Online to your authenticator app by entering this key (or the link below), then enter the code the app shows.",
      ),
    ).toBeVisible();
    const details = page.locator(".token-setup__details");
    const secret = ((await details.locator("dd code").first().textContent()) ?? "").trim();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    await expect(details.locator(".token-setup__uri")).toContainText(`secret=${secret}`);
    await expect(page.getByRole("button", { name: "Request new code" })).toHaveCount(0);
    expect(await newestId(request, username)).toBe(sentBefore);
    await expectAccessible(page);

    const enrolledAt = step();
    await enterCode(page, totpAt(secret, enrolledAt));

    // spec 000 §4 step 4: after enrolling the user must verify once more, with a message saying so
    await expect(heading).toHaveText("Enter your security code");
    await expect(
      page.getByText(
        "Your device has been linked. You must now verify once more with a new security code to finish logging in.",
      ),
    ).toBeVisible();
    await expect(page.getByText("Enter the code your authenticator app shows for Client Online.")).toBeVisible();
    await expect(page.getByLabel("Security code")).toHaveValue("");
    await expectAccessible(page);

    // The code that enrolled the device, typed again, is refused with the wrong-code wording and
    // nothing more; the owner is told that a code already used was typed (ASVS V2.8.5, decision 181).
    const beforeReuse = await newestId(request, username);
    await enterCode(page, totpAt(secret, enrolledAt));
    await expect(
      page.getByText("There was an error with the authentication code you entered. Please try again.").first(),
    ).toBeVisible();
    await expect(page.getByText(/already been used|used again/i)).toHaveCount(0);
    await expect(page.getByLabel("Security code")).toHaveValue("");
    await expectAccessible(page);
    await expect
      .poll(async () => (await outbox(request, username)).find((row) => row.id > beforeReuse)?.subject)
      .toBe("A security code was used again on your Client Online account");

    // A time step is usable once: the next code of the app (within the platform's window of one
    // step either side), or the current one if time has moved on since.
    await enterCode(page, totpAt(secret, Math.max(enrolledAt + 1, step())));
    await expect(page).toHaveURL(/\/clients/);
  });
});
