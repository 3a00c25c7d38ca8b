import type { Page } from "@playwright/test";
import { expect, expectAccessible, signIn, test } from "./fixtures";
import { copyUser } from "./platform";

// Issue 40 (WCAG 3.1.2, docs/decisions/210): a French-speaking client meets the platform's texts in
// French (the password guidance, the default security questions, asset classes, sectors and regions,
// report templates, document types, benchmarks), and what stays English (the records' narratives,
// securities' names) is marked `lang="en"`, so that a screen reader speaks it as English.

/** The footer's language form, to Canadian French (the choice is the user's own, kept on the platform). */
async function chooseFrench(page: Page) {
  await page.getByLabel("Language").selectOption("fr-CA");
  await page.getByRole("button", { name: "Change language" }).click();
  await expect(page.locator("html")).toHaveAttribute("lang", "fr-CA");
}

/** A copy of demo.client who has chosen Canadian French. */
async function frenchClient(page: Page, request: Parameters<typeof copyUser>[0]) {
  const username = await copyUser(request, "demo.client", { ownEmail: true });
  await signIn(page, username);
  await expect(page).toHaveURL(/\/clients\/home$/);
  await chooseFrench(page);
}

test.describe("a client who reads the portal in Canadian French", () => {
  test.use({ viewport: { width: 1280, height: 900 } });

  test("meets the guidance, the security questions and the report templates in French", async ({ page, request }) => {
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

    await expectAccessible(page);
  });
});

// An adviser of demo.client's who reads in French (decision 212): a copy of demo.adviser advising
// the same clients, in the language the copy chose, so demo.client's own language never changes
// under another journey. The client's records (a copy of demo.client has none) in French.
test.describe("an adviser who reads demo.client's analysis and messages in Canadian French", () => {
  test.use({ viewport: { width: 1280, height: 900 } });

  test("meets the allocation, the benchmarks and the messages' types in French, securities' names marked English", async ({
    page,
    request,
  }) => {
    test.setTimeout(120_000);
    const username = await copyUser(request, "demo.adviser", { clients: true });
    await signIn(page, username, { adviser: true });
    await expect(page).toHaveURL(/\/advisers\/clients$/);
    await page.getByLabel("Client name").fill("Hartley");
    await page.getByRole("button", { name: "Search" }).click();
    await page.getByRole("button", { name: "Open Hartley, Eleanor" }).click();
    await expect(page).toHaveURL(/\/clients\/home$/);
    await chooseFrench(page);
    const main = page.locator("main");

    // the allocation's categories and the performance chart's benchmarks, in French
    await page.goto("/clients/analysis?tab=allocation");
    await expect(page.getByRole("heading", { level: 1, name: "Tous les portefeuilles" })).toBeVisible();
    await expect(main.getByText("Indice FTSE All-Share", { exact: true }).first()).toBeVisible();
    await page.getByText("Graphique et placements par catégorie d'actif").click();
    const assetClasses = page.getByRole("figure", { name: /^Répartition par Catégorie d'actif/ });
    await expect(assetClasses.getByRole("listitem")).toHaveText([
      "Actions",
      "Titres à revenu fixe",
      "Liquidités",
      "Immobilier",
    ]);
    expect(await main.textContent()).not.toMatch(/\b(Equities|Fixed income|United Kingdom|FTSE All-Share Index)\b/);
    await expectAccessible(page);

    // the transactions: the securities' names are the records' own, English, marked so
    await page.goto("/clients/analysis?tab=transactions");
    await expect(main.locator('a[lang="en"]', { hasText: "Unilever plc" }).first()).toBeVisible();
    await expectAccessible(page);

    // the messages' document types: the filter's and each row's, in French
    await page.goto("/clients/documents-and-messages");
    const types = await page.getByLabel("Type de document").locator("option").allTextContents();
    expect(types).toEqual(expect.arrayContaining(["Avis d’exécution", "Évaluation", "Message sécurisé"]));
    expect(types.filter((t) => /^(Contract note|Valuation|Secure message)$/.test(t))).toEqual([]);
    await page.getByLabel("Type de document").selectOption("ContractNote");
    await page.getByRole("button", { name: "Appliquer" }).click();
    await expect(page).toHaveURL(/type=ContractNote/);
    // every row found is a contract note, its type in French (the list, once it has been filtered)
    const rowTypes = page.getByRole("list", { name: /^Messages de/ }).locator(".message-item__type");
    await expect(rowTypes.filter({ hasNotText: "Avis d’exécution" })).toHaveCount(0);
    await expect(rowTypes.first()).toHaveText("Avis d’exécution");
    await expectAccessible(page);
  });
});
