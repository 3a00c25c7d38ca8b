import type { APIRequestContext, Page } from "@playwright/test";
import { randomBytes } from "node:crypto";
import { expect, expectAccessible, signIn, test } from "./fixtures";
import { codeSentAfter, newestId, platformUrl } from "./platform";

// spec 002 "Signature view", "Signing journey", §8 "Digital signature": the To be signed folder, the
// document and signing or declining with a one-time code, with JavaScript on and off. Journeys that
// sign or decline use their own copy of demo.client with its own documents to sign.

async function copyWithSignatures(request: APIRequestContext, template = "demo.client"): Promise<string> {
  const username = `${template.replace(/^demo\./, "")}-${randomBytes(4).toString("hex")}`;
  const response = await request.post(`${platformUrl()}/dev/users/${template}/copy`, {
    data: { username, signatures: true, email: `${username}@example.test` },
  });
  expect(response.status()).toBe(201);
  return username;
}

const journey = (page: Page) => page.locator("#signature-journey");
const signatories = (page: Page) => page.getByRole("region", { name: "Signatories" });

/** Opens a document of the To be signed folder. */
async function openToBeSigned(page: Page, title: string) {
  await page.goto("/clients/documents-and-messages?toBeSigned=true");
  await page.getByRole("link", { name: title }).click();
  await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();
}

/** Chooses to sign and accepts the terms: the tick sends the code with JavaScript, the tick and a button without. */
async function acceptTerms(page: Page, javaScript: "on" | "off") {
  await journey(page).getByRole("button", { name: "Sign document" }).click();
  await expect(page).toHaveURL(/step=terms/);
  const terms = journey(page).getByRole("region", { name: "Terms and conditions of electronic signature" });
  await expect(terms).toBeVisible();
  // issue 25 item 3: the platform's English terms say so, whatever the page's language
  await expect(terms).toHaveAttribute("lang", "en");
  await journey(page).getByLabel("I have read and accept the terms and conditions").check();
  if (javaScript === "off") await journey(page).getByRole("button", { name: "Send me a security code" }).click();
}

async function enterCode(page: Page, code: string) {
  const verify = journey(page).getByRole("button", { name: "Verify" });
  if ((await journey(page).getByLabel("Security code").inputValue()) === "" && (await verify.isDisabled())) {
    // issue 25 item 10: the disabled Verify says why beside it (with JavaScript)
    await expect(verify).toHaveAccessibleDescription("Enter the code to verify your signature.");
  }
  await journey(page).getByLabel("Security code").fill(code);
  await journey(page).getByRole("button", { name: "Verify" }).click();
}

/**
 * The document's address, from its preview (issue 26): with JavaScript the button shows the frame
 * on the page (and hides it again), without it the link opens the PDF.
 */
async function documentAddress(page: Page, javaScript: "on" | "off"): Promise<string> {
  if (javaScript === "off")
    return (await page.getByRole("link", { name: "Show the document" }).getAttribute("href")) as string;
  const show = page.getByRole("button", { name: "Show the document" });
  await expect(show).toHaveAttribute("aria-expanded", "false");
  await show.click();
  const hide = page.getByRole("button", { name: "Hide the document" });
  await expect(hide).toHaveAttribute("aria-expanded", "true");
  await expect(hide).toBeFocused();
  const frame = page.locator("#signature-preview iframe[title='Letter of authority.pdf']");
  await expect(frame).toBeVisible();
  const src = (await frame.getAttribute("src")) as string;
  await hide.click();
  await expect(page.locator("iframe")).toHaveCount(0);
  return src;
}

/** A six-digit code that is not `code`. */
const wrong = (code: string) => code.replace(/.$/, (d) => String((Number(d) + 1) % 10));

test.describe("digital signatures", () => {
  test("signs a document from the home panel with the code sent by sms; a wrong code can be retried", async ({
    page,
    request,
    javaScript,
  }) => {
    test.slow();
    const username = await copyWithSignatures(request);
    await signIn(page, username);
    await expect(page).toHaveURL(/\/clients\/home$/);
    await page.getByRole("link", { name: /sign/i }).filter({ hasText: /sign/i }).first().click();
    await expect(page).toHaveURL(/toBeSigned=true/);
    const list = page.getByRole("list", { name: /To be signed/ });
    await expect(list.getByRole("listitem").filter({ hasText: "Letter of authority" })).toContainText(
      "Awaiting signature",
    );
    // issue 25 item 11: finished and pending documents are listed after those awaiting action, with their badges
    await expect(list.getByRole("listitem").filter({ hasText: "Annual review pack" })).toContainText("Pending");
    await expect(list.getByRole("listitem").filter({ hasText: "Suitability report acknowledgement" })).toContainText(
      "Signed",
    );
    await expectAccessible(page);

    await list.getByRole("link", { name: "Letter of authority" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Letter of authority" })).toBeVisible();
    // issue 26: the document's frame shows when asked for, not with the page
    await expect(page.locator("iframe")).toHaveCount(0);
    expect(await documentAddress(page, javaScript)).toMatch(
      /^\/clients\/documents-and-messages\/signature-documents\/\d+$/,
    );
    await expect(page.getByRole("link", { name: /Download/ })).toHaveAttribute(
      "href",
      /signature-documents\/\d+\?download=1$/,
    );
    await expect(signatories(page)).toContainText("Awaiting signature by Hartley, Eleanor");
    await expectAccessible(page);

    const before = await newestId(request, username);
    await acceptTerms(page, javaScript);
    await expect(page).toHaveURL(/step=code/);
    const { code } = await codeSentAfter(request, username, before);
    expect(code).toMatch(/^\d{6}$/);
    await expectAccessible(page);

    await enterCode(page, wrong(code));
    await expect(journey(page)).toContainText(
      "The security code that you provided does not match the one that was sent. Please try again.",
    );
    await expect(journey(page).getByLabel("Security code")).toHaveValue("");
    await expectAccessible(page);
    await enterCode(page, code);
    await expect(signatories(page)).toContainText(/Signed by Hartley, Eleanor on \d/);
    await expect(page.locator(".signature-meta")).toContainText("Signed");
    await expect(journey(page).getByRole("button", { name: "Sign document" })).toHaveCount(0);
    // issue 25 item 11: a toast and a line on the page say who signed and when
    await expect(page.getByRole("status").filter({ hasText: "You have signed the document" })).toContainText(
      "Letter of authority",
    );
    await expect(journey(page)).toContainText(
      /Signed by Hartley, Eleanor on \d.*: the document above is the signed copy\./,
    );
    await expect(journey(page)).not.toContainText("There is nothing for you to sign on this document.");
    await expect(page.getByRole("link", { name: /Download/ })).toHaveAttribute(
      "href",
      /signature-documents\/\d+\?download=1$/,
    );
    await expectAccessible(page);

    // the signed document is still in To be signed, with its badge, and opens again
    await page.getByRole("link", { name: "Back to To be signed" }).click();
    const folder = page.getByRole("list", { name: /To be signed/ });
    await expect(folder.getByRole("listitem").filter({ hasText: "Letter of authority" })).toContainText(/Signed \d/);
    await expect(folder.getByRole("listitem").filter({ hasText: "Suitability report acknowledgement" })).toContainText(
      "Signed",
    );
    await expect(folder.getByRole("listitem").filter({ hasText: "Fee agreement 2025" })).toContainText("Declined");
    await expectAccessible(page);
    await folder.getByRole("link", { name: "Letter of authority" }).click();
    await expect(journey(page)).toContainText(/Signed by Hartley, Eleanor on \d/);
  });

  test("three wrong codes end the code; a new one signs the joint document, which is then part-signed", async ({
    page,
    request,
    javaScript,
  }) => {
    test.slow();
    const username = await copyWithSignatures(request);
    await signIn(page, username);
    await expect(page).toHaveURL(/\/clients\/home$/);
    await openToBeSigned(page, "Joint account application");
    const before = await newestId(request, username);
    await acceptTerms(page, javaScript);
    const first = await codeSentAfter(request, username, before);
    await enterCode(page, wrong(first.code));
    await expect(journey(page)).toContainText("does not match");
    await enterCode(page, wrong(first.code));
    await expect(journey(page)).toContainText("does not match");
    await enterCode(page, wrong(first.code));
    await expect(journey(page)).toContainText("Too many invalid code attempts.");
    await expectAccessible(page);

    await journey(page).getByRole("button", { name: "Send a new code" }).click();
    await expect(page).toHaveURL(/step=code/);
    const second = await codeSentAfter(request, username, first.id);
    await journey(page).getByLabel("I have read and accept the terms and conditions").check();
    await enterCode(page, second.code);
    await expect(signatories(page)).toContainText(/Signed by Hartley, Eleanor on \d/);
    await expect(signatories(page)).toContainText("Awaiting signature by Hartley, James");
    await expect(page.locator(".signature-meta")).toContainText("Awaiting signature");
  });

  test("views the document, then declines it", async ({ page, request, javaScript }) => {
    const username = await copyWithSignatures(request);
    await signIn(page, username);
    await expect(page).toHaveURL(/\/clients\/home$/);
    await openToBeSigned(page, "Letter of authority");
    // 'View': a dialog with JavaScript, the page with a taller frame without
    if (javaScript === "on") {
      const view = page.getByRole("button", { name: "View" });
      await view.click();
      const dialog = page.getByRole("dialog", { name: "Please sign the document below" });
      await expect(dialog.locator("iframe[title='Letter of authority.pdf']")).toBeVisible();
      // issue 25 item 5: the focus starts on the dialog's heading, not inside the PDF frame
      await expect(dialog.getByRole("heading", { name: "Please sign the document below" })).toBeFocused();
      await expectAccessible(page);
      await page.keyboard.press("Tab");
      await expect(dialog.getByRole("button", { name: "Close" })).toBeFocused();
      // Escape closes it and the focus goes back to 'View'
      await page.keyboard.press("Escape");
      await expect(page.getByRole("dialog")).toHaveCount(0);
      await expect(view).toBeFocused();
      // also once the focus is inside the document's frame
      await view.click();
      await dialog.locator("iframe").focus();
      await page.keyboard.press("Escape");
      await expect(page.getByRole("dialog")).toHaveCount(0);
      await expect(view).toBeFocused();
      await view.click();
      await dialog.getByRole("button", { name: "Close" }).click();
      await expect(page.getByRole("dialog")).toHaveCount(0);
      await expect(view).toBeFocused();
    } else {
      await page.getByRole("link", { name: "View" }).click();
      await expect(page.getByRole("heading", { level: 2, name: "Please sign the document below" })).toBeVisible();
      await page.getByRole("link", { name: "Back to the signing steps" }).click();
    }
    // the document itself is the portal's PDF
    const pdf = await page.request.get(await documentAddress(page, javaScript));
    expect(pdf.headers()["content-type"]).toBe("application/pdf");
    expect((await pdf.body()).subarray(0, 5).toString()).toBe("%PDF-");
    await journey(page).getByRole("button", { name: "Decline document" }).click();
    await expect(page).toHaveURL(/step=decline/);
    await expectAccessible(page);
    await journey(page).getByRole("button", { name: "Decline document" }).click();
    await expect(signatories(page)).toContainText(/Declined by Hartley, Eleanor on \d/);
    await expect(page.locator(".signature-meta")).toContainText("Declined");
    await expect(journey(page)).toContainText(/Declined by Hartley, Eleanor on \d/);
  });

  test("a registered phone without '+' cannot receive the code", async ({ page, request, javaScript }) => {
    // a copy of demo.partner, whose registered mobile has no '+', with its own joint document
    await signIn(page, await copyWithSignatures(request, "demo.partner"));
    await expect(page).toHaveURL(/\/clients\//);
    await openToBeSigned(page, "Joint account application");
    await acceptTerms(page, javaScript);
    await expect(journey(page)).toContainText(
      "We are unable to sign the document as there seems to be a problem with your registered phone number. Please contact your adviser.",
    );
    await expectAccessible(page);
  });

  test("an adviser in context has no To be signed folder; another client cannot open a document by its id", async ({
    page,
  }) => {
    await signIn(page, "demo.client");
    await expect(page).toHaveURL(/\/clients\/home$/);
    await openToBeSigned(page, "Letter of authority");
    const address = new URL(page.url()).pathname;
    await page.context().clearCookies();

    // James is not a signatory of Eleanor's letter: it answers as one that does not exist
    await signIn(page, "demo.partner");
    await expect(page).toHaveURL(/\/clients\//);
    const foreign = await page.goto(address);
    expect(foreign?.status()).toBe(404);
    await page.context().clearCookies();

    await signIn(page, "demo.adviser", { adviser: true });
    await page.getByLabel("Client name").fill("Hartley");
    await page.getByRole("button", { name: "Search" }).click();
    await page.getByRole("button", { name: "Open Hartley, Eleanor" }).click();
    await expect(page).toHaveURL(/\/clients\/home$/);
    // spec 002 §6: the signature folder is for ClientUser only (decision 197)
    await page.goto("/clients/documents-and-messages");
    await expect(page.getByRole("heading", { level: 2, name: "Inbox" })).toBeVisible();
    await expect(page.getByRole("link", { name: /^To be signed/ })).toHaveCount(0);
    await expectAccessible(page);
    const denied = await page.goto(address);
    expect(denied?.status()).toBe(403);
    await expect(page.getByRole("heading", { level: 1, name: "Access Denied" })).toBeVisible();
  });
});
