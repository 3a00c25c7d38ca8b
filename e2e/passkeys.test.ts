import type { CDPSession, Page, Request as PageRequest } from "@playwright/test";
import { DEMO_PASSWORD, errorSummary, expect, expectAccessible, signIn, signOut as logOut, test } from "./fixtures";
import { copyUser, newestId, registerPasskeyFor, signInWithCode } from "./platform";

// Issue 15 (docs/decisions/101): passkeys as spec 000's biometric login. With JavaScript, Chromium's
// virtual authenticator (the DevTools protocol's WebAuthn domain) stands in for the fingerprint:
// it answers every ceremony with user verification. Each journey signs in as its own copy of a
// demo client, so no other journey meets its passkeys.

const PAGE_PATH = "/clients/biometric-permission";
const SAVED = "Your permission choice has been set";

type Authenticator = { cdp: CDPSession; id: string };

/** A platform authenticator with user verification, as a phone or laptop with a fingerprint reader. */
async function addAuthenticator(page: Page): Promise<Authenticator> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("WebAuthn.enable", { enableUI: false });
  const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      ctap2Version: "ctap2_1",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return { cdp, id: authenticatorId };
}

async function credentialsOf(authenticator: Authenticator) {
  const { credentials } = await authenticator.cdp.send("WebAuthn.getCredentials", {
    authenticatorId: authenticator.id,
  });
  return credentials;
}

/** Log out, and wait for the login page that says so (the next page must not cross the log out). */
async function signOut(page: Page) {
  await logOut(page);
  await expect(page).toHaveURL(/\/login\?reason=UserLoggedOut$/);
}

function toast(page: Page, text: string) {
  return page.getByRole("status").filter({ hasText: text });
}

async function openAccountMenu(page: Page) {
  await page.getByText("My Account").click();
}

/** Ticks the permission and saves: the virtual authenticator creates the passkey. */
/** The current password, asked again before the choice is saved or a passkey removed (decision 179). */
function currentPassword(page: Page) {
  return page.getByLabel("Current password", { exact: true });
}

/** A passkey's removal form, in its row (decision 179): the current password and 'Remove passkey'. */
function removeForm(page: Page, name: string) {
  return page.getByRole("form", { name: `Remove passkey ${name}` });
}

async function grant(page: Page) {
  await page.goto(PAGE_PATH);
  const box = page.getByLabel("Grant permission to login via a biometric check");
  await expect(box).not.toBeChecked();
  const save = page.getByRole("button", { name: "Save" });
  // spec 000 §2: Save is enabled only after a change
  await expect(save).toBeDisabled();
  // the password is asked once the choice differs
  await expect(currentPassword(page)).toHaveCount(0);
  await box.check();
  await expect(save).toBeEnabled();
  await currentPassword(page).fill(DEMO_PASSWORD);
  await save.click();
  await expect(toast(page, SAVED)).toBeVisible();
  await expect(page.getByLabel("Grant permission to login via a biometric check")).toBeChecked();
}

/**
 * A browser without passkey autofill: the virtual authenticator would answer the login page's
 * conditional request at once, and these journeys drive the button.
 */
async function withoutAutofill(page: Page) {
  await page.addInitScript(() => {
    Object.defineProperty(PublicKeyCredential, "isConditionalMediationAvailable", {
      value: () => Promise.resolve(false),
    });
  });
}

/** The login page with the passkey button ready (the page's script has found WebAuthn). */
async function loginPage(page: Page) {
  await page.goto("/login");
  await expect(page.getByRole("button", { name: "Login using biometrics" })).toBeVisible();
}

/** The post that carries the browser's answer to the login action. */
const isPasskeyPost = (request: PageRequest) =>
  request.method() === "POST" &&
  new URL(request.url()).pathname === "/login" &&
  (request.postData() ?? "").includes("intent=passkey");

test.describe("passkeys with JavaScript @js-only", () => {
  test("a client registers a passkey, signs in with it alone, renames it, removes it and then cannot use it", async ({
    page,
    request,
  }) => {
    // the whole life of a passkey, a refused password first
    test.slow();
    const username = await copyUser(request, "demo.client", { ownEmail: true });
    const authenticator = await addAuthenticator(page);
    await signIn(page, username);
    await expect(page).toHaveURL(/\/clients\/home/);

    // The account menu offers the page while the client has no passkey (spec 000 §2, adapted).
    await openAccountMenu(page);
    await page.getByRole("link", { name: "Biometric login" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Biometric login" })).toBeVisible();
    await expect(page.getByText("You have no passkeys.")).toBeVisible();
    await expectAccessible(page);

    // A wrong current password: no ceremony, so no passkey on the device (decision 179).
    await page.getByLabel("Grant permission to login via a biometric check").check();
    await expect(page.getByText("To save a change of permission, enter your current password.")).toBeVisible();
    await currentPassword(page).fill("Not-the-password-8");
    await page.getByRole("button", { name: "Save" }).click();
    await expect(page.getByRole("alert").filter({ hasText: "There is a problem" })).toContainText(
      "The current password is incorrect.",
    );
    await expect(currentPassword(page)).toHaveAttribute("aria-invalid", "true");
    await expect(currentPassword(page)).toHaveValue("");
    expect(await credentialsOf(authenticator)).toHaveLength(0);
    await expectAccessible(page);

    await grant(page);
    expect(await credentialsOf(authenticator)).toHaveLength(1);
    const row = page.getByRole("row", { name: /Chrome on Linux/ });
    await expect(row).toContainText("This device");
    await expect(row).toContainText("Never used");
    await expectAccessible(page);
    // Once there is a passkey the menu leaves the link out; the security pages still lead there.
    await openAccountMenu(page);
    await expect(page.getByRole("link", { name: "Change password" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Biometric login" })).toHaveCount(0);
    await page.keyboard.press("Escape");

    // Signed out, the passkey alone signs in: no username, no password. The username field offers
    // it in the browser's autofill: the page starts a conditional request, which the virtual
    // authenticator answers at once (as a person choosing the passkey in the autofill list would).
    await page.addInitScript(() => {
      const seen: string[] = [];
      Object.assign(window, { mediations: seen });
      const get = navigator.credentials.get.bind(navigator.credentials);
      navigator.credentials.get = (options) => {
        seen.push(options?.mediation ?? "optional");
        return get(options);
      };
    });
    // The login page the log out lands on starts it (a page opened over it would cut its sign-in
    // short): the page is loaded anew first, so that the document it lands on counts the requests.
    await page.reload();
    await signOut(page);
    await expect(page).toHaveURL(/\/clients\/home/);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    expect(await page.evaluate(() => (window as unknown as { mediations: string[] }).mediations)).toEqual([
      "conditional",
    ]);

    // Renamed from the list, reached from the change password page.
    await page.goto("/clients/change-password");
    await page.getByRole("link", { name: "Biometric login" }).click();
    await expect(page).toHaveURL(PAGE_PATH);
    await expect(page.getByRole("row", { name: /Chrome on Linux/ })).not.toContainText("Never used");
    await page.getByRole("link", { name: "Rename Chrome on Linux" }).click();
    const name = page.getByLabel("New name for Chrome on Linux");
    await expect(name).toBeFocused();
    await name.fill("   ");
    await page.getByRole("button", { name: "Save name" }).click();
    await expect(page.getByRole("alert").filter({ hasText: "There is a problem" })).toContainText(
      "Enter a name for the passkey",
    );
    await expectAccessible(page);
    await page.getByLabel("New name for Chrome on Linux").fill("Work laptop");
    await page.getByRole("button", { name: "Save name" }).click();
    await expect(toast(page, "Passkey renamed")).toBeVisible();
    await expect(page.getByRole("row", { name: /Work laptop/ })).toContainText("This device");

    // Removed, after the current password: the permission is withdrawn on this device and the menu
    // offers the page again.
    await page.getByRole("link", { name: "Remove Work laptop" }).click();
    const removal = removeForm(page, "Work laptop");
    await expect(removal.getByText("To remove the passkey Work laptop, enter your current password.")).toBeVisible();
    await removal.getByLabel("Current password", { exact: true }).fill(DEMO_PASSWORD);
    await removal.getByRole("button", { name: "Remove passkey Work laptop" }).click();
    await expect(toast(page, "Passkey removed")).toBeVisible();
    await expect(page.getByText("You have no passkeys.")).toBeVisible();
    await expect(page.getByLabel("Grant permission to login via a biometric check")).not.toBeChecked();
    await openAccountMenu(page);
    await expect(page.getByRole("link", { name: "Biometric login" })).toBeVisible();
    await page.keyboard.press("Escape");

    // The authenticator keeps its copy, but the platform no longer knows it: the autofill's answer
    // and then the button's are refused, and the password form stays as the user left it.
    await signOut(page);
    await page.goto("/login");
    await expect(page.getByRole("alert")).toContainText("This passkey is not recognised");
    await page.getByLabel("Username").fill(username);
    await page.getByRole("button", { name: "Login using biometrics" }).click();
    await expect(page.getByRole("alert")).toContainText("This passkey is not recognised");
    await expect(page).toHaveURL(/\/login/);
    await expect(page.getByLabel("Username")).toHaveValue(username);
    await expect(page.getByLabel("Username")).toHaveAttribute("autocomplete", "username webauthn");
    await expectAccessible(page);
  });

  test("withdrawing the permission removes this device's passkey", async ({ page, request }) => {
    const username = await copyUser(request, "demo.client", { ownEmail: true });
    await addAuthenticator(page);
    await signIn(page, username);
    await expect(page).toHaveURL(/\/clients\/home/);
    await grant(page);
    const box = page.getByLabel("Grant permission to login via a biometric check");
    await box.uncheck();
    await currentPassword(page).fill(DEMO_PASSWORD);
    await page.getByRole("button", { name: "Save" }).click();
    await expect(toast(page, SAVED)).toBeVisible();
    await expect(page.getByLabel("Grant permission to login via a biometric check")).not.toBeChecked();
    await expect(page.getByText("You have no passkeys.")).toBeVisible();
  });

  test("an MFA client signs in with a passkey and no security code", async ({ page, request }) => {
    const username = await copyUser(request, "demo.mfa", { ownEmail: true });
    await addAuthenticator(page);
    await withoutAutofill(page);
    await signInWithCode(page, request, username);
    await grant(page);
    await signOut(page);
    const before = await newestId(request, username);
    await loginPage(page);
    await page.getByRole("button", { name: "Login using biometrics" }).click();
    await expect(page).toHaveURL(/\/clients\/home/);
    // No code was asked for, and none was sent.
    expect(await newestId(request, username)).toBe(before);
  });

  test("a tampered assertion and a replayed one are refused", async ({ page, request }) => {
    const username = await copyUser(request, "demo.client", { ownEmail: true });
    await addAuthenticator(page);
    await withoutAutofill(page);
    await signIn(page, username);
    await expect(page).toHaveURL(/\/clients\/home/);
    await grant(page);
    await signOut(page);

    // Tampered: one bit of the signature flipped on its way to the portal.
    await loginPage(page);
    let genuine: string | null = null;
    await page.route("**/login*", async (route) => {
      const sent = route.request();
      if (!isPasskeyPost(sent)) return route.fallback();
      const form = new URLSearchParams(sent.postData() ?? "");
      genuine = sent.postData();
      const response = JSON.parse(form.get("response") ?? "{}") as { response: { signature: string } };
      const signature = Buffer.from(response.response.signature, "base64url");
      signature[signature.length - 1] = signature[signature.length - 1]! ^ 0x01;
      response.response.signature = signature.toString("base64url");
      form.set("response", JSON.stringify(response));
      await route.fallback({ postData: form.toString() });
    });
    await page.getByRole("button", { name: "Login using biometrics" }).click();
    await expect(page.getByRole("alert")).toContainText("Your biometric login could not be verified");
    await expect(page).toHaveURL(/\/login/);
    await page.unrouteAll({ behavior: "wait" });

    // Replayed: the genuine answer to that (now spent) challenge, sent again in place of a new one.
    expect(genuine).not.toBeNull();
    await page.route("**/login*", async (route) => {
      if (!isPasskeyPost(route.request())) return route.fallback();
      const replay = new URLSearchParams(genuine ?? "");
      const fresh = new URLSearchParams(route.request().postData() ?? "");
      // the form's own token and honeypot stay (they are the page's), the passkey answer is the old one
      fresh.set("response", replay.get("response") ?? "");
      await route.fallback({ postData: fresh.toString() });
    });
    await page.getByRole("button", { name: "Login using biometrics" }).click();
    await expect(page.getByRole("alert")).toContainText("Biometric login took too long");
    await expect(page).toHaveURL(/\/login/);
    await page.unrouteAll({ behavior: "wait" });

    // The passkey itself still works.
    await page.getByRole("button", { name: "Login using biometrics" }).click();
    await expect(page).toHaveURL(/\/clients\/home/);
  });
});

test.describe("passkeys without JavaScript @no-js-only", () => {
  test("the permission page says what granting needs, and the login page works with a password", async ({
    page,
    request,
  }) => {
    const username = await copyUser(request, "demo.client", { ownEmail: true });
    await page.goto("/login");
    await expect(page.getByRole("button", { name: "Login using biometrics" })).toHaveCount(0);
    await signIn(page, username);
    await expect(page).toHaveURL(/\/clients\/home/);
    await openAccountMenu(page);
    await page.getByRole("link", { name: "Biometric login" }).click();
    await expect(
      page.getByText(/Granting permission needs JavaScript, which this browser is not running/),
    ).toBeVisible();
    await expect(page.getByText("You have no passkeys.")).toBeVisible();
    // Save is always enabled without JavaScript; granting cannot happen, and the page says why.
    await page.getByLabel("Grant permission to login via a biometric check").check();
    await page.getByRole("button", { name: "Save" }).click();
    await expect(page.getByRole("alert").filter({ hasText: "There is a problem" })).toContainText(
      "Granting permission needs JavaScript and a browser that supports passkeys",
    );
    await expectAccessible(page);
    // Saving the choice as it stands is fine.
    await page.getByLabel("Grant permission to login via a biometric check").uncheck();
    await page.getByRole("button", { name: "Save" }).click();
    await expect(toast(page, SAVED)).toBeVisible();
  });

  test("passkeys are listed, renamed and removed with plain forms", async ({ page, request, baseURL }) => {
    // rename and removal each refused once first
    test.slow();
    const username = await copyUser(request, "demo.client", { ownEmail: true });
    await registerPasskeyFor(request, username, new URL(baseURL!).origin);
    await signIn(page, username);
    await expect(page).toHaveURL(/\/clients\/home/);
    // With a passkey the menu leaves the page out; the security questions page leads there.
    await openAccountMenu(page);
    await expect(page.getByRole("link", { name: "Biometric login" })).toHaveCount(0);
    await page.goto("/clients/security-questions");
    await page.getByRole("link", { name: "Biometric login" }).click();
    const row = page.getByRole("row", { name: /Home tablet/ });
    await expect(row).toContainText("Never used");
    // Registered elsewhere: not this device's, so the permission here is not granted.
    await expect(row).not.toContainText("This device");
    await expect(page.getByLabel("Grant permission to login via a biometric check")).not.toBeChecked();

    await page.getByRole("link", { name: "Rename Home tablet" }).click();
    await expect(page).toHaveURL(/\?rename=\d+$/);
    await page.getByLabel("New name for Home tablet").fill(" ");
    await page.getByRole("button", { name: "Save name" }).click();
    await expect(page.getByRole("alert").filter({ hasText: "There is a problem" })).toContainText(
      "Enter a name for the passkey",
    );
    await expect(page.getByLabel("New name for Home tablet")).toHaveAttribute("aria-invalid", "true");
    await expectAccessible(page);
    await page.getByLabel("New name for Home tablet").fill("Kitchen tablet");
    await page.getByRole("button", { name: "Save name" }).click();
    await expect(toast(page, "Passkey renamed")).toBeVisible();
    await expect(page.getByRole("row", { name: /Kitchen tablet/ })).toBeVisible();

    // Removing asks for the current password first (decision 179), in the row's own form.
    await page.getByRole("link", { name: "Remove Kitchen tablet" }).click();
    await expect(page).toHaveURL(/\?remove=\d+$/);
    const removal = removeForm(page, "Kitchen tablet");
    const removalPassword = removal.getByLabel("Current password", { exact: true });
    await removalPassword.fill("Not-the-password-9");
    await removal.getByRole("button", { name: "Remove passkey Kitchen tablet" }).click();
    // the page's error summary, above its heading (GOV.UK's pattern, decision 194)
    await expect(errorSummary(page)).toContainText("The current password is incorrect.");
    await expect(removalPassword).toHaveAttribute("aria-invalid", "true");
    await expect(removalPassword).toHaveValue("");
    await expect(page.getByRole("row", { name: /Kitchen tablet/ })).toBeVisible();
    await expectAccessible(page);
    await removalPassword.fill(DEMO_PASSWORD);
    await removal.getByRole("button", { name: "Remove passkey Kitchen tablet" }).click();
    await expect(toast(page, "Passkey removed")).toBeVisible();
    await expect(page.getByText("You have no passkeys.")).toBeVisible();
    await openAccountMenu(page);
    await expect(page.getByRole("link", { name: "Biometric login" })).toBeVisible();
  });
});
