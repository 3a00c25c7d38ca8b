import type { Page } from "@playwright/test";
import { expect, expectAccessible, signIn, test } from "./fixtures";
import { copyUser } from "./platform";

// Issue 40 (WCAG 3.1.2, docs/decisions/210): a French-speaking client meets the platform's texts in
// French (the password guidance, the default security questions, asset classes, sectors and regions,
// report templates, document types, benchmarks), and what stays English (the records' narratives,
// securities' names) is marked `lang="en"`, so that a screen reader speaks it as English.

/** A copy of demo.client who has chosen Canadian French (the choice is the user's own, kept on the platform). */
async function frenchClient(page: Page, request: Parameters<typeof copyUser>[0]) {
  const username = await copyUser(request, "demo.client", { ownEmail: true });
  await signIn(page, username);
  await expect(page).toHaveURL(/\/clients\/home$/);
  await page.getByLabel("Language").selectOption("fr-CA");
  await page.getByRole("button", { name: "Change language" }).click();
  await expect(page.locator("html")).toHaveAttribute("lang", "fr-CA");
}

/** Elements that carry English text without saying so: none on a French page but those marked. */
async function unmarked(page: Page, texts: string[]): Promise<string[]> {
  return page.evaluate(
    (english) =>
      english.filter((text) =>
        [...document.querySelectorAll("main *")].some(
          (el) =>
            [...el.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && n.textContent?.trim() === text) &&
            el.closest("[lang]")?.getAttribute("lang") !== "en",
        ),
      ),
    texts,
  );
}

test.describe("a client who reads the portal in Canadian French", () => {
  test.use({ viewport: { width: 1280, height: 900 } });

  test("meets the guidance, the security questions, report templates and document types in French", async ({
    page,
    request,
  }) => {
    test.setTimeout(120_000);
    await frenchClient(page, request);

    await page.goto("/clients/change-password");
    const guidance = page.getByText(/^Utilisez au moins 12 caractères/);
    await expect(guidance).toBeVisible();
    await expect(page.getByText(/Use at least 12 characters/)).toHaveCount(0);
    await expectAccessible(page);

    await page.goto("/clients/security-questions");
    const first = page.getByLabel("Première question de sécurité");
    // the question chosen in English shows as the same question in French
    await expect(first.locator("option:checked")).toHaveText("Quel était le nom de votre premier animal de compagnie?");
    const options = await first.locator("option").allTextContents();
    expect(options).toContain("Dans quelle ville êtes-vous né ou née?");
    expect(options.filter((o) => /^(What|In which)/.test(o))).toEqual([]);
    await expect(first.locator("option[lang]")).toHaveCount(0);
    await expectAccessible(page);

    await page.goto("/clients/valuation-report");
    const templates = await page.getByLabel("Rapport").locator("option").allTextContents();
    expect(templates).toEqual(expect.arrayContaining(["Évaluation du portefeuille", "Rapport de rendement"]));
    expect(templates).not.toContain("Portfolio valuation");

    await page.goto("/clients/documents-and-messages");
    const types = await page.getByLabel("Type de document").locator("option").allTextContents();
    expect(types).toEqual(expect.arrayContaining(["Message sécurisé", "Évaluation", "Avis d’exécution"]));
    expect(types).not.toContain("Secure Message");
    await expect(page.locator(".message-item__type").first()).not.toHaveText(/Secure Message|Valuation|Contract note/);
    await expectAccessible(page);
  });

  test("reads the analysis in French, the records' own words marked English", async ({ page, request }) => {
    test.setTimeout(120_000);
    await frenchClient(page, request);

    await page.goto("/clients/analysis?tab=allocation&range=SI");
    const main = page.locator("main");
    await expect(main).toContainText("Actions");
    await expect(main).toContainText("Royaume-Uni");
    await expect(main).toContainText("Titres à revenu fixe");
    expect(await unmarked(page, ["Equities", "Fixed income", "United Kingdom", "North America", "Financials"])).toEqual(
      [],
    );
    // the securities' names are the records' own: marked English
    const securities = page.locator(".allocation-panel__category ~ tr th[scope='row']");
    expect(await securities.count()).toBeGreaterThan(0);
    // (but 'DONNÉES NON VALIDES', the portal's French words for a name the records lack)
    const unmarkedSecurities = await securities.evaluateAll((cells) =>
      cells
        .filter((c) => c.getAttribute("lang") !== "en" && c.textContent?.trim() !== "DONNÉES NON VALIDES")
        .map((c) => c.textContent),
    );
    expect(unmarkedSecurities).toEqual([]);
    // the benchmarks of the percentage chart
    await expect(main).toContainText("Indice FTSE All-Share");
    expect(await unmarked(page, ["FTSE All-Share", "Balanced index 60/40 (MSCI World and UK gilts)"])).toEqual([]);
    await expectAccessible(page);

    await page.goto("/clients/analysis?tab=transactions&range=SI");
    const details = page.locator(".transactions__details");
    await expect(details).toBeVisible();
    // the narrative comes from the records, in English
    const narrative = details.locator("dt", { hasText: "Description" }).locator("xpath=following-sibling::dd");
    await expect(narrative).toHaveAttribute("lang", "en");
    await expect(narrative).not.toHaveText("");
    const security = page.locator(".transactions__table th[scope='row'] a").first();
    await expect(security).toHaveAttribute("lang", "en");
    await expectAccessible(page);
  });
});
