import type { Page } from "@playwright/test";
import { errorSummary, expect, expectAccessible, scriptsReady, signIn, test } from "./fixtures";

// Issue 40 "Errors the GOV.UK way" (docs/decisions/194): a page that shows errors after a submit
// says so first in its title ('Error: ' before the page's title); its error summary stands at the
// top of `main`, above the h1, outside the form; the element that takes the focus is not the
// `role="alert"` element, which is its child (GOV.UK Frontend's error summary).

/** Where the summary stands and what it is, as a screen-reader user meets it. */
async function expectSummaryAtTheTop(page: Page) {
  const summary = errorSummary(page);
  await expect(summary).toBeVisible();
  const place = await summary.evaluate((element) => {
    const main = element.closest("main");
    const h1 = main?.querySelector("h1") ?? null;
    return {
      inMain: main !== null,
      inForm: element.closest("form") !== null,
      aboveH1: h1 !== null && Boolean(element.compareDocumentPosition(h1) & Node.DOCUMENT_POSITION_FOLLOWING),
      alertIsChild: element.querySelector(":scope > [role=alert]") !== null,
      role: element.getAttribute("role"),
    };
  });
  expect(place).toEqual({ inMain: true, inForm: false, aboveH1: true, alertIsChild: true, role: null });
}

/** With JavaScript the summary has the focus; the focused element is not the alert. */
async function expectSummaryFocused(page: Page, javaScript: "on" | "off") {
  if (javaScript === "off") return;
  await expect(errorSummary(page)).toBeFocused();
  await expect(page.locator(":focus")).not.toHaveAttribute("role", "alert");
  await expect(page.locator(":focus [role=alert]")).toHaveCount(1);
}

test.describe("sending a form with mistakes", () => {
  test("the login page's title starts with 'Error: ', its summary above the h1 has the focus", async ({
    page,
    javaScript,
  }) => {
    await page.goto("/login");
    await expect(page.getByRole("heading", { level: 1, name: "Log in to Client Online" })).toBeVisible();
    const title = await page.title();
    expect(title).not.toMatch(/^Error/);
    await scriptsReady(page);
    await page.getByRole("button", { name: "Login", exact: true }).click();
    await expect(errorSummary(page).getByRole("link", { name: "Please enter a username" })).toBeVisible();
    await expect(page).toHaveTitle(`Error: ${title}`);
    await expectSummaryAtTheTop(page);
    await expectSummaryFocused(page, javaScript);
    await expectAccessible(page);
  });

  test("compose: the title says so until the mistake is put right", async ({ page, javaScript }) => {
    await signIn(page, "demo.client");
    await expect(page).toHaveURL(/\/clients\/home$/);
    await page.goto("/clients/documents-and-messages?compose=true");
    const subject = page.getByLabel("Subject", { exact: true });
    await expect(subject).toBeVisible();
    const title = await page.title();
    expect(title).not.toMatch(/^Error/);
    await scriptsReady(page);
    await page.getByRole("textbox", { name: "Message", exact: true }).fill("About my pension");
    await page.getByRole("button", { name: "Send" }).click();
    await expect(errorSummary(page).getByRole("link", { name: "Please enter a message subject." })).toBeVisible();
    await expect(page).toHaveTitle(`Error: ${title}`);
    await expectSummaryAtTheTop(page);
    await expectSummaryFocused(page, javaScript);
    // the field's error is the portal's one error message: a hidden 'Error:' before the text
    await expect(page.locator(`#${await subject.getAttribute("aria-describedby")}`)).toHaveText(
      "Error: Please enter a message subject.",
    );
    await expectAccessible(page);
    if (javaScript === "on") {
      // put right as the user types: the summary goes, and the title is the page's again
      await subject.fill("Pension");
      await expect(errorSummary(page)).toHaveCount(0);
      await expect(page).toHaveTitle(title);
    }
  });

  test("the client search in the address: the page arrives titled 'Error: ' with its summary on top", async ({
    page,
    javaScript,
  }) => {
    await signIn(page, "demo.adviser", { adviser: true });
    await expect(page).toHaveURL(/\/advisers\//);
    await page.goto("/advisers/clients");
    const title = await page.title();
    expect(title).not.toMatch(/^Error/);
    // a search bookmarked with a name the rules refuse: the answer of a GET, with JavaScript
    // hydrating the title the server wrote
    await page.goto("/advisers/clients?name=H%40rtley");
    await expect(errorSummary(page).getByRole("link", { name: "Please enter a valid name" })).toBeVisible();
    await expect(page).toHaveTitle(`Error: ${title}`);
    await scriptsReady(page);
    await expectSummaryAtTheTop(page);
    await expectSummaryFocused(page, javaScript);
    await expectAccessible(page);
    // a search without mistakes: the title is the page's again
    await page.getByLabel("Client name").fill("Hartley");
    await page.getByRole("button", { name: "Search" }).click();
    await expect(page).toHaveURL(/name=Hartley/);
    await expect(errorSummary(page)).toHaveCount(0);
    await expect(page).toHaveTitle(title);
  });
});
