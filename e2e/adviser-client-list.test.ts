import { errorSummary, expect, expectAccessible, signIn, test } from "./fixtures";

const rows = (page: import("@playwright/test").Page) => page.locator("table tbody tr");

test.describe("an adviser works through the client list", () => {
  test("searches, pages and sorts, with bookmarkable addresses", async ({ page, javaScript }) => {
    await signIn(page, "demo.adviser", { adviser: true });
    await expect(page).toHaveURL(/\/advisers\/clients$/);
    await expect(page.getByRole("heading", { level: 1, name: "Your Clients" })).toBeVisible();
    // Before the first search nothing is listed.
    await expect(page.getByRole("table")).toHaveCount(0);
    await expectAccessible(page);

    await page.getByRole("button", { name: "Search" }).click();
    await expect(page.getByText("Showing the first 20 clients that match the search criteria.")).toBeVisible();
    await expect(rows(page)).toHaveCount(20);
    await expect(rows(page).first()).toContainText("Bell, Marcus");
    await expectAccessible(page);

    await page.getByRole("link", { name: "Load more..." }).click();
    await expect(page.getByText("Showing the first 40 clients that match the search criteria.")).toBeVisible();
    await expect(rows(page)).toHaveCount(40);
    if (javaScript === "on") {
      // the focus moves to the first new row, and a status says what changed (issue 40)
      await expect(page.locator("#row-21")).toBeFocused();
      await expect(page.getByRole("status").filter({ hasText: "40 clients shown." })).toHaveCount(1);
    }
    await page.getByRole("link", { name: "Load more..." }).click();
    await expect(page.getByText("Showing all clients that match the search criteria.")).toBeVisible();
    await expect(rows(page)).toHaveCount(46);
    await expect(page.getByRole("link", { name: "Load more..." })).toHaveCount(0);

    // Sorting by name toggles to descending and starts again from the first page.
    await page.getByRole("link", { name: /^Name/ }).click();
    await expect(page).toHaveURL(/sort=-name/);
    await expect(page.getByRole("columnheader", { name: /^Name/ })).toHaveAttribute("aria-sort", "descending");
    await expect(rows(page).first()).toContainText("Wright, Evie");
    await expect(rows(page)).toHaveCount(20);

    // Sorting by date of birth: the oldest client first.
    await page.getByRole("link", { name: /^Date of birth/ }).click();
    await expect(page).toHaveURL(/sort=dob/);
    await expect(rows(page).first()).toContainText("O'Brien, Mia");

    // The address alone reproduces the view for a colleague.
    const bookmark = page.url();
    await page.goto(bookmark);
    await expect(rows(page).first()).toContainText("O'Brien, Mia");
  });

  test("finds clients by name without accents, by date of birth and by postcode", async ({ page }) => {
    await signIn(page, "demo.adviser", { adviser: true });
    await page.getByLabel("Client name").fill("zoe bronte");
    await page.getByRole("button", { name: "Search" }).click();
    await expect(page).toHaveURL(/name=zoe\+bronte/);
    await expect(page.getByText("Showing all clients that match the search criteria.")).toBeVisible();
    await expect(rows(page)).toHaveCount(1);
    await expect(rows(page).first()).toContainText("Brontë, Zoë");

    await page.getByLabel("Client name").fill("");
    await page.getByLabel("Date of birth").fill("12/04/1968");
    await page.getByRole("button", { name: "Search" }).click();
    await expect(rows(page)).toHaveCount(1);
    await expect(rows(page).first()).toContainText("Hartley, Eleanor");

    await page.getByLabel("Date of birth").fill("");
    await page.getByLabel("Postcode").fill("w11");
    await page.getByRole("button", { name: "Search" }).click();
    await expect(rows(page)).toHaveCount(2);

    await page.getByLabel("Postcode").fill("");
    await page.getByLabel("Client name").fill("Nobody Atall");
    await page.getByRole("button", { name: "Search" }).click();
    await expect(page.getByText("No clients were found. Try widening your search criteria.")).toBeVisible();
    await expectAccessible(page);
  });

  test("invalid criteria are explained and kept", async ({ page, javaScript }) => {
    await signIn(page, "demo.adviser", { adviser: true });
    await page.getByLabel("Client name").fill("H@rtley");
    await page.getByLabel("Date of birth").fill("31/02/1968");
    await page.getByLabel("Postcode").fill("W");
    if (javaScript === "on") {
      // With JavaScript the browser checks the same rules before asking the server, when the search
      // is sent (never on leaving a field: issue 25 item 1), and the summary takes the focus.
      await page.getByLabel("Client name").press("Tab");
      await expect(page.getByText("Please enter a valid name")).toHaveCount(0);
      await page.getByRole("button", { name: "Search" }).click();
      await expect(page.getByText("Please enter a valid name").first()).toBeVisible();
      await expect(errorSummary(page)).toBeFocused();
      return;
    }
    await page.getByRole("button", { name: "Search" }).click();
    const summary = page.getByRole("alert").filter({ hasText: "There is a problem" });
    await expect(summary.getByRole("link", { name: "Please enter a valid name" })).toBeVisible();
    await expect(
      summary.getByRole("link", { name: "Please enter a date in a valid format of DD/MM/YYYY" }),
    ).toBeVisible();
    await expect(summary.getByRole("link", { name: "Please only enter a number or a letter" })).toBeVisible();
    await expect(page.getByLabel("Client name")).toHaveValue("H@rtley");
    await expect(page.getByLabel("Client name")).toHaveAttribute("aria-invalid", "true");
    await expect(page.getByRole("table")).toHaveCount(0);
    await expectAccessible(page);
  });

  test("opens a client in context, views their details and returns to the list", async ({ page }) => {
    await signIn(page, "demo.adviser", { adviser: true });
    await page.getByLabel("Client name").fill("Hartley");
    await page.getByRole("button", { name: "Search" }).click();
    await expect(rows(page)).toHaveCount(2);
    await expect(page.getByLabel("Portal view for Hartley, Eleanor")).toHaveValue("Portfolio");
    await page.getByRole("button", { name: "Open Hartley, Eleanor" }).click();

    await expect(page).toHaveURL(/\/clients\/home$/);
    const viewing = page.getByRole("link", { name: /Viewing .*Hartley/ });
    await expect(viewing).toBeVisible();
    await expect(page.getByRole("heading", { level: 1 })).toContainText("Welcome");
    await expectAccessible(page);

    await page.getByText("My Account").click();
    await page.getByRole("link", { name: "Personal details" }).first().click();
    await expect(page).toHaveURL(/\/clients\/personal-details$/);
    await expect(page.getByRole("heading", { level: 1, name: "Personal details" })).toBeVisible();
    await expect(page.getByText("Hartley").first()).toBeVisible();
    await expectAccessible(page);

    // 'Viewing …' leads back to the list as the adviser left it.
    await page.getByRole("link", { name: /Viewing .*Hartley/ }).click();
    await expect(page).toHaveURL(/\/advisers\/clients\?name=Hartley/);
    await expect(page.getByRole("heading", { level: 1, name: "Your Clients" })).toBeVisible();
    await expect(rows(page)).toHaveCount(2);
  });

  test("a client without a login opens only in a chosen preview view", async ({ page, javaScript }) => {
    await signIn(page, "demo.adviser", { adviser: true });
    await page.getByLabel("Client name").fill("Poppy Davies");
    await page.getByRole("button", { name: "Search" }).click();
    await expect(rows(page)).toHaveCount(1);
    const select = page.getByLabel("Portal view for Davies, Poppy");
    await expect(select).toHaveValue("");
    await expect(select.locator("option:checked")).toHaveText("No client access");
    const open = page.getByRole("button", { name: "Open Davies, Poppy" });
    if (javaScript === "on") {
      await expect(open).toBeDisabled();
    } else {
      await open.click();
      await expect(page.getByText("Choose a portal view to preview this client.").first()).toBeVisible();
    }
    await page.getByLabel("Portal view for Davies, Poppy").selectOption("Assets");
    await page.getByRole("button", { name: "Open Davies, Poppy" }).click();
    await expect(page).toHaveURL(/\/clients\/home$/);
    await expect(page.getByText("Preview").first()).toBeVisible();
  });
});
