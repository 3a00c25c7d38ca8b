import { expect, expectAccessible, signIn, test } from "./fixtures";
import { copyUser } from "./platform";

test("a visitor switches the portal to Canadian French and back", async ({ page }) => {
  await page.goto("/login");
  // a signed-out visitor's form: it carries the honeypot, left empty (conventions)
  await expect(page.locator('form[action="/locale"] input[name="name__confirm"]')).toHaveValue("");
  await page.getByLabel("Language").selectOption("fr-CA");
  await page.getByRole("button", { name: "Change language" }).click();
  await expect(page.locator("html")).toHaveAttribute("lang", "fr-CA");
  await expect(page.getByRole("heading", { level: 1, name: "Connexion à Client Online" })).toBeVisible();
  await expect(page.getByLabel("Nom d’utilisateur")).toBeVisible();
  await expectAccessible(page);

  // Signed in, the user's own locale (en-GB in the demo) wins over the visitor's choice...
  await page.getByLabel("Nom d’utilisateur").fill("demo.client");
  await page.getByLabel("Mot de passe", { exact: true }).fill("Demo-pass-1");
  await page.getByRole("button", { name: "Connexion", exact: true }).click();
  await expect(page).toHaveURL(/\/clients\/home$/);
  await expect(page.locator("html")).toHaveAttribute("lang", "en-GB");
  await expect(page.getByRole("link", { name: "Home", exact: true })).toBeVisible();

  // ...until they choose again while signed in.
  await page.getByLabel("Language").selectOption("fr-CA");
  await page.getByRole("button", { name: "Change language" }).click();
  await expect(page.locator("html")).toHaveAttribute("lang", "fr-CA");
  await expect(page.getByRole("link", { name: "Accueil", exact: true })).toBeVisible();
  await expectAccessible(page);

  await page.getByLabel("Langue").selectOption("en-GB");
  await page.getByRole("button", { name: "Changer de langue" }).click();
  await expect(page.locator("html")).toHaveAttribute("lang", "en-GB");
  await expect(page.getByRole("link", { name: "Home", exact: true })).toBeVisible();
});

test("a replayed cookie after logout gets nothing", async ({ page, context }) => {
  await signIn(page, "demo.client");
  await expect(page).toHaveURL(/\/clients\/home$/);
  const before = await context.cookies();
  await page.getByText("My Account").click();
  await page.getByRole("button", { name: "Log out" }).click();
  await expect(page).toHaveURL(/reason=UserLoggedOut/);
  // Put the old session cookie back, as an attacker who copied it would.
  await context.addCookies(before.filter((c) => c.name === "__session"));
  await page.goto("/clients/personal-details");
  await expect(page).toHaveURL(/\/login\?reason=LostSession/);
  await expect(page.getByText("Your session has ended. Please log in again.")).toBeVisible();
});

test("the messages page is in French in fr-CA: heading, title and folders, none of the site's English", async ({
  page,
  request,
}) => {
  // issue 25 item 3 (decision 119); a copy, as choosing a language signed in is the user's own choice
  const username = await copyUser(request, "demo.client", { ownEmail: true });
  await signIn(page, username);
  await expect(page).toHaveURL(/\/clients\/home$/);
  await page.getByLabel("Language").selectOption("fr-CA");
  await page.getByRole("button", { name: "Change language" }).click();
  await expect(page.locator("html")).toHaveAttribute("lang", "fr-CA");
  await page.goto("/clients/documents-and-messages");
  await expect(page.getByRole("heading", { level: 1, name: "Messages et documents" })).toBeVisible();
  await expect(page).toHaveTitle("Messages et documents | Client Online");
  const folders = page.getByRole("navigation", { name: "Dossiers" });
  for (const name of [/^Boîte de réception/, /^Évaluations/, /^Avis d’exécution/])
    await expect(folders.getByRole("link", { name })).toBeVisible();
  await expect(page.getByText(/Messages and documents|Inbox|Valuations|Contract notes/)).toHaveCount(0);
  await expectAccessible(page);
});
