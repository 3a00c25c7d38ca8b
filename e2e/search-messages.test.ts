import type { Page } from "@playwright/test";
import { expect, expectAccessible, signIn, test } from "./fixtures";

// docs/decisions/209: search in messages finds the words of the text and the attachments' names,
// and says where each message matched, with JavaScript on and off. Every search is an address.

const MESSAGES = "/clients/documents-and-messages";
const items = (page: Page) => page.locator(".message-list__items > li");

async function searchFor(page: Page, words: string) {
  await page.getByLabel("Search messages").fill(words);
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page).toHaveURL(new RegExp(`search=${encodeURIComponent(words).replace(/%20/g, "(\\+|%20)")}`));
}

test.describe("searching messages", () => {
  test("a client finds a letter by a word of its text and a message by an attachment's name, the words marked", async ({
    page,
  }) => {
    // four searches and an opened message, each a page of its own without JavaScript, two of them checked with axe
    test.slow();
    await signIn(page, "demo.client");
    await expect(page).toHaveURL(/\/clients\/home$/);
    await page.goto(MESSAGES);
    await expect(page.getByRole("heading", { level: 1, name: "Messages and documents" })).toBeVisible();

    // a word that is in the letter's text only, not in its subject
    await searchFor(page, "dividend");
    await expect(items(page)).toHaveCount(1);
    const letter = items(page).first();
    await expect(letter.locator(".message-item__subject")).toHaveText("Your portfolio after the Budget");
    const snippet = letter.locator(".message-item__snippet");
    await expect(snippet).toContainText("the dividend allowance falls again");
    await expect(snippet.locator("mark")).toHaveText("dividend");
    await expectAccessible(page);

    // the name of an attachment
    await searchFor(page, "forecast");
    await expect(items(page)).toHaveCount(1);
    await expect(items(page).first().locator(".message-item__snippet")).toHaveText(
      "Attachment: Cash flow forecast 2025.xlsx",
    );
    await expect(items(page).first().locator(".message-item__snippet mark")).toHaveText("forecast");

    // a word of a subject is marked in the subject; the result opens with the search kept
    await searchFor(page, "questionnaire");
    const questionnaire = items(page).filter({ hasText: "Your attitude to risk questionnaire" });
    await expect(questionnaire.locator(".message-item__subject mark")).toHaveText("questionnaire");
    await questionnaire.getByRole("link").click();
    await expect(page.getByRole("heading", { level: 2, name: "Your attitude to risk questionnaire" })).toBeVisible();
    await expect(page).toHaveURL(/search=questionnaire/);
    await expect(page.getByLabel("Search messages")).toHaveValue("questionnaire");
    await expectAccessible(page);
  });

  test("what FTS5 would read as its syntax is a search like another, kept in the address", async ({ page }) => {
    await signIn(page, "demo.client");
    await expect(page).toHaveURL(/\/clients\/home$/);
    const awkward = '" * -';
    await page.goto(`${MESSAGES}?search=${encodeURIComponent(awkward)}`);
    await expect(page.getByText("No messages for current selection")).toBeVisible();
    await expect(page.getByLabel("Search messages")).toHaveValue(awkward);
    // operators are words: 'OR' is one more word to find, it does not widen the search
    await searchFor(page, "dividend OR questionnaire");
    await expect(page.getByText("No messages for current selection")).toBeVisible();
    await searchFor(page, '"dividend allowance"');
    await expect(items(page)).toHaveCount(1);
    await expect(items(page).first().locator(".message-item__snippet mark")).toHaveText(["dividend allowance"]);
    await expectAccessible(page);
  });
});
