import type { Page, TestInfo } from "@playwright/test";
import { execFileSync } from "node:child_process";
import { expect, signIn, test } from "./fixtures";

// Issue 25 item 20 (decision 117): clients print their holdings and statements. Each analysis tab,
// the balance sheet, a message and a signature page print as clean pages: no navigation or buttons,
// every table whole, the client's name and the date on each page.

const CLIENT = "Ellie Hartley";

/** The text of each printed page (A4, the page's own @page rules). */
async function printedPages(page: Page, testInfo: TestInfo, name: string): Promise<string[]> {
  const file = testInfo.outputPath(`${name}.pdf`);
  await page.pdf({ path: file, format: "A4", preferCSSPageSize: true });
  return execFileSync("pdftotext", ["-layout", file, "-"], { encoding: "utf8" })
    .split("\f")
    .filter((text) => text.trim());
}

async function expectCleanPrint(page: Page, testInfo: TestInfo, path: string) {
  await page.goto(path);
  await expect(page.locator("h1").first()).toBeVisible();
  await page.emulateMedia({ media: "print" });
  // no navigation, buttons or footer
  await expect(page.getByRole("navigation", { name: "Main menu" }), path).toBeHidden();
  await expect(page.locator("footer"), path).toBeHidden();
  expect(await page.locator("button:visible, .button:visible").count(), `${path}: buttons printed`).toBe(0);
  // every table whole: none scrolls inside its region
  const cut = await page
    .locator(".table-wrap")
    .evaluateAll((regions) =>
      regions
        .filter((r) => r.getClientRects().length > 0 && r.scrollWidth > r.clientWidth + 1)
        .map((r) => r.querySelector("caption")?.textContent ?? "a table"),
    );
  expect(cut, `${path}: tables cut`).toEqual([]);
  // the client's name and the date on every page
  const pages = await printedPages(page, testInfo, path.replace(/\W+/g, "-"));
  expect(pages.length, path).toBeGreaterThan(0);
  pages.forEach((text, i) => {
    expect(text, `${path}: page ${i + 1}`).toContain(CLIENT);
    expect(text, `${path}: page ${i + 1}`).toMatch(/Printed on \d{1,2}\w{0,2} \w+ \d{4}/);
  });
  await page.emulateMedia({ media: "screen" });
}

test.describe("printing", () => {
  test.use({ viewport: { width: 720, height: 1000 } });

  test("each analysis tab prints clean, with the client's name and the date on every page", async ({
    page,
  }, testInfo) => {
    test.setTimeout(180_000);
    await signIn(page, "demo.client");
    await expect(page).toHaveURL(/\/clients\/home/, { timeout: 30_000 });
    for (const tab of ["accounts", "investments", "allocation", "transactions"]) {
      await expectCleanPrint(page, testInfo, `/clients/analysis?tab=${tab}&range=SI`);
    }
  });

  test("the balance sheet, a message and a signature page print clean", async ({ page }, testInfo) => {
    test.setTimeout(180_000);
    await signIn(page, "demo.client");
    await expect(page).toHaveURL(/\/clients\/home/, { timeout: 30_000 });
    await expectCleanPrint(page, testInfo, "/clients/balance-sheet");
    await page.goto("/clients/documents-and-messages");
    const message = await page.locator("a[href*='message=']").first().getAttribute("href");
    await expectCleanPrint(page, testInfo, message!);
    await page.goto("/clients/documents-and-messages?toBeSigned=true");
    const signature = await page
      .getByRole("list", { name: /To be signed/ })
      .getByRole("link")
      .first()
      .getAttribute("href");
    await expectCleanPrint(page, testInfo, signature!);
  });
});

// Issue 40: a printed message is the message alone; the analysis page prints without blank pages,
// headings left at a page's foot, chevrons or a half-width transactions table.
test.describe("printing, page by page", () => {
  test.use({ viewport: { width: 1280, height: 1000 } });

  const displayOf = (page: Page, selector: string) =>
    page
      .locator(selector)
      .first()
      .evaluate((el) => getComputedStyle(el).display);
  const widthOf = (page: Page, selector: string) =>
    page
      .locator(selector)
      .first()
      .evaluate((el) => el.getBoundingClientRect().width);

  test("a message prints alone, its subject with its body", async ({ page }, testInfo) => {
    test.setTimeout(120_000);
    await signIn(page, "demo.client");
    await expect(page).toHaveURL(/\/clients\/home/, { timeout: 30_000 });
    await page.goto("/clients/documents-and-messages");
    const message = await page.locator("a[href*='message=']").first().getAttribute("href");
    await page.goto(message!);
    const subject = (await page.locator(".reading-pane__subject").textContent())!.trim();
    await page.emulateMedia({ media: "print" });
    for (const part of [".messages-layout__controls", ".message-list", ".page--messages > h1"])
      expect(await displayOf(page, part), part).toBe("none");
    await expect(page.getByRole("navigation", { name: "Folders" })).toBeHidden();
    // the message takes the page's width
    const pane = await widthOf(page, ".reading-pane");
    expect(pane).toBeGreaterThan((await widthOf(page, "main")) * 0.9);
    expect(await page.locator(".reading-pane__subject").evaluate((el) => getComputedStyle(el).breakAfter)).toBe(
      "avoid",
    );
    const pages = await printedPages(page, testInfo, "message-alone");
    // the subject is on the first page, with the start of its body; no folder or list is printed
    expect(pages[0]).toContain(subject);
    expect(pages.join("\n")).not.toMatch(/Inbox \(|Load more|Sort by/);
    await page.emulateMedia({ media: "screen" });
  });

  test("the analysis prints its chart on the first page, the transactions full width, no chevrons", async ({
    page,
  }, testInfo) => {
    test.setTimeout(120_000);
    await signIn(page, "demo.client");
    await expect(page).toHaveURL(/\/clients\/home/, { timeout: 30_000 });
    await page.goto("/clients/analysis?tab=accounts&range=SI");
    await expect(page.locator("h1").first()).toBeVisible();
    await page.emulateMedia({ media: "print" });
    expect(await displayOf(page, ".accounts-table__chevron")).toBe("none");
    for (const heading of ["h2", "caption"])
      expect(
        await page
          .locator(`main ${heading}`)
          .first()
          .evaluate((el) => getComputedStyle(el).breakAfter),
        heading,
      ).toBe("avoid");
    const accounts = await printedPages(page, testInfo, "analysis-accounts");
    // the chart stays on page 1 under the page's heading, its legend (under the drawing) with it
    expect(accounts[0]).toContain("Performance chart");
    expect(accounts[0]).toContain("FTSE All-Share");
    await page.emulateMedia({ media: "screen" });

    await page.goto("/clients/analysis?tab=transactions&range=SI");
    await expect(page.locator(".transactions__table")).toBeVisible();
    await page.emulateMedia({ media: "print" });
    const table = await widthOf(page, ".transactions__table");
    expect(table).toBeGreaterThan((await widthOf(page, ".transactions")) * 0.95);
    expect(await displayOf(page, ".transactions")).toBe("block");
    await page.emulateMedia({ media: "screen" });
  });
});
