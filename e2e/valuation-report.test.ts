import type { Download, Page } from "@playwright/test";
import { randomBytes } from "node:crypto";
import { readFile } from "node:fs/promises";
import { pdfText } from "../tests/pdf-text";
import { expect, expectAccessible, holdScripts, scriptsReady, selectAsScriptsTakeOver, signIn, test } from "./fixtures";
import { platformUrl } from "./platform";

// spec 002 "Valuation report page", §4 "Report run", §8, §9; spec 000 §2 the menu's rule
// (docs/decisions/099): a template's choices, the job's page that waits for the platform (polling
// with JavaScript, refreshing itself without), report.pdf through the portal, its text checked
// against the home's figure; the single-click report; a failure that keeps the choices.

const GENERATING = "We are generating your portfolio report";
const main = (page: Page) => page.getByRole("main");

/** Chooses a template: the select submits itself with JavaScript, a button does without. */
async function chooseTemplate(page: Page, name: string, javaScript: "on" | "off") {
  // with JavaScript the choice submits itself once the page's scripts run
  await scriptsReady(page);
  await main(page).getByLabel("Report", { exact: true }).selectOption({ label: name });
  if (javaScript === "off") await main(page).getByRole("button", { name: "Choose report" }).click();
  await expect(main(page).getByRole("button", { name: "Run report" })).toBeVisible();
}

/** Runs the report and waits on the job's page for the file, then downloads it. */
async function runAndDownload(page: Page): Promise<{ download: Download; text: string }> {
  await main(page).getByRole("button", { name: "Run report" }).click();
  await expect(page).toHaveURL(/\/clients\/valuation-report\/jobs\/[^/?]+/);
  // spec 002 §8: the report toast, and the page's own status and progress
  await expect(page.getByRole("region", { name: "Notifications" }).getByText(GENERATING)).toBeVisible();
  await expect(main(page).getByRole("status").filter({ hasText: GENERATING })).toBeVisible();
  await expectAccessible(page);
  await expect(main(page).getByText("Your report is ready.")).toBeVisible({ timeout: 30_000 });
  await expectAccessible(page);
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    main(page).getByRole("link", { name: "Download report.pdf" }).click(),
  ]);
  expect(download.suggestedFilename()).toBe("report.pdf");
  const text = (await pdfText(await readFile((await download.path())!))).text;
  return { download, text };
}

/** '£1,234,567.89' as whole pounds, as the home shows it. */
const wholePounds = (money: string) => `£${Math.round(Number(money.replace(/[£,]/g, ""))).toLocaleString("en-GB")}`;

test.describe("valuation reports", () => {
  test("a single-date report's total is the home's portfolio value", async ({ page, javaScript }) => {
    test.slow();
    await signIn(page, "demo.client");
    await expect(page).toHaveURL(/\/clients\/home$/);
    const homeValue = (await page
      .locator(".overview-tile")
      .filter({ hasText: "Portfolio value" })
      .locator(".overview-tile__figure")
      .textContent())!.trim();

    await page.getByRole("navigation", { name: "Main menu" }).getByRole("link", { name: "Valuation report" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Valuation report" })).toBeVisible();
    await expectAccessible(page);
    await chooseTemplate(page, "Portfolio valuation", javaScript);
    // today by default, in the one date format of the portal (issue 25 item 18)
    await expect(main(page).getByLabel("Valuation date")).toHaveValue(/^\d{2}-\d{2}-\d{4}$/);
    await expect(main(page).getByLabel("Valuation date")).toHaveAccessibleDescription("For example, 31-03-2025");
    await expectAccessible(page);

    const { text } = await runAndDownload(page);
    expect(text).toContain("Ellie Hartley");
    const total = /Grand total of \d+ accounts?\s*(£[\d,]+\.\d{2})/.exec(text)?.[1];
    expect(total, text.slice(0, 2000)).toBeTruthy();
    expect(wholePounds(total!)).toBe(homeValue);
  });

  test("a date-range report for an account group", async ({ page, javaScript }) => {
    test.slow();
    await signIn(page, "demo.client");
    await expect(page).toHaveURL(/\/clients\/home$/);
    await page.goto("/clients/valuation-report");
    await chooseTemplate(page, "Performance report", javaScript);
    // an end before the start is refused with the spec's text, the choices kept
    await main(page).getByLabel("Custom").check();
    await main(page).getByLabel("Start date").fill("01-05-2026");
    await main(page).getByLabel("End date").fill("30-04-2026");
    const selection = main(page).getByLabel("Account group or account");
    // decision 107: the choices are what a run can cover, her own managed accounts and their groups;
    // the 'Not managed' Premium Bonds, its group and James's linked accounts are not offered
    await expect(selection.locator("option", { hasText: "Ellie Stocks and Shares ISA" })).toHaveCount(1);
    for (const left of ["Ellie Premium Bonds and deposits", "Cash and deposits", "James"])
      await expect(selection.locator("option", { hasText: left })).toHaveCount(0);
    const firstGroup = selection.locator("optgroup").first().locator("option").first();
    await selection.selectOption((await firstGroup.getAttribute("value"))!);
    await main(page).getByRole("button", { name: "Run report" }).click();
    await expect(
      page.getByRole("alert").getByRole("link", { name: "You cannot select an End date earlier than the Start date." }),
    ).toBeVisible();
    // GOV.UK's pattern (issue 40): the page's title says so first
    await expect(page).toHaveTitle(/^Error: /);
    await expect(main(page).getByLabel("Start date")).toHaveValue("01-05-2026");
    await expectAccessible(page);

    await main(page).getByLabel("1 year").check();
    const { text } = await runAndDownload(page);
    expect(text).toContain("Ellie Hartley");
    expect(text).toMatch(/Performance/);
    expect(text).toMatch(/Grand total of \d+ accounts?/);
  });

  test("a report chosen before the page's scripts arrive is sent when they do @js-only", async ({ page }) => {
    await signIn(page, "demo.client");
    await expect(page).toHaveURL(/\/clients\/home$/);
    const release = await holdScripts(page);
    // the page shows before its scripts run (they hold back its load event)
    await page.goto("/clients/valuation-report", { waitUntil: "commit" });
    await main(page).getByLabel("Report", { exact: true }).selectOption({ label: "Portfolio valuation" });
    // the scripts take 'Choose report' away: the choice they found is sent in its place
    release();
    await scriptsReady(page);
    await expect(page).toHaveURL(/[?&]template=/);
    await expect(main(page).getByRole("button", { name: "Run report" })).toBeVisible();
    await expect(main(page).getByRole("button", { name: "Choose report" })).toHaveCount(0);

    // a report chosen as the scripts take the page over, before it counts as theirs, is sent too
    const releaseOnce = await holdScripts(page);
    await page.goto("/clients/valuation-report", { waitUntil: "commit" });
    await selectAsScriptsTakeOver(page, "template", "Performance report", releaseOnce);
    await expect(main(page).getByRole("button", { name: "Run report" })).toBeVisible();
    await expect(main(page).getByLabel("Report", { exact: true }).locator("option:checked")).toHaveText(
      "Performance report",
    );

    // a date range's Custom period checked before the scripts arrive keeps its dates shown
    const releaseAgain = await holdScripts(page);
    await page.goto("/clients/valuation-report", { waitUntil: "commit" });
    await main(page).getByLabel("Report", { exact: true }).selectOption({ label: "Performance report" });
    await main(page).getByRole("button", { name: "Choose report" }).click();
    await expect(page).toHaveURL(/[?&]template=/);
    await main(page).getByLabel("Custom").check();
    releaseAgain();
    await scriptsReady(page);
    await expect(main(page).getByLabel("Custom")).toBeChecked();
    await expect(main(page).getByLabel("Start date")).toBeVisible();
    await expect(main(page).getByLabel("End date")).toBeVisible();
  });

  test("a client without templates runs the one report", async ({ page }) => {
    await signIn(page, "demo.partner");
    await expect(page).toHaveURL(/\/clients\/home$/);
    await page.goto("/clients/valuation-report");
    await expect(main(page).getByLabel("Report", { exact: true })).toHaveCount(0);
    const { text } = await runAndDownload(page);
    expect(text).toMatch(/James Hartley|Jim Hartley|Hartley/);
  });

  test("a failed job says so and keeps the choices", async ({ page, request, javaScript }) => {
    // its own copy of demo.client (with the same templates), so no other journey meets the failure
    const username = `report-${randomBytes(4).toString("hex")}`;
    const copied = await request.post(`${platformUrl()}/dev/users/demo.client/copy`, {
      data: { username, email: `${username}@example.test` },
    });
    expect(copied.status()).toBe(201);
    await signIn(page, username);
    await expect(page).toHaveURL(/\/clients\/home$/);
    await page.goto("/clients/valuation-report");
    await chooseTemplate(page, "Portfolio valuation", javaScript);
    await main(page).getByLabel("Valuation date").fill("30-06-2026");
    const failing = await request.post(`${platformUrl()}/dev/report-jobs/fail-next`, { data: { username } });
    expect(failing.ok()).toBe(true);
    await main(page).getByRole("button", { name: "Run report" }).click();
    // the toasts' empty alert region is on every page: the failure's own alert
    await expect(page.getByRole("alert").filter({ hasText: "We could not generate your report." })).toBeVisible({
      timeout: 30_000,
    });
    await expectAccessible(page);
    await main(page).getByRole("link", { name: "Try again" }).click();
    await expect(main(page).getByLabel("Report", { exact: true })).toHaveValue(/\d+/);
    await expect(main(page).getByLabel("Valuation date")).toHaveValue("30-06-2026");
  });

  test("a client with Messages access has no report @once", async ({ page }) => {
    await signIn(page, "demo.messages");
    await expect(page).toHaveURL(/\/clients\/documents-and-messages/);
    await expect(page.getByRole("link", { name: "Valuation report" })).toHaveCount(0);
    await page.goto("/clients/valuation-report");
    await expect(
      page.getByText("You are not authorised to view the page that you requested.", { exact: false }),
    ).toBeVisible();
  });
});
