import type { Page } from "@playwright/test";
import type { AxeResults } from "axe-core";
import { axeViolations, expect, expectAccessible, signIn, test } from "./fixtures";

// WCAG 1.4.10 (reflow): at 320 CSS px every page reads without a horizontal scroll bar, with
// JavaScript on and off. A table too wide for the screen scrolls inside its own region, which the
// keyboard can reach (tabindex 0) and a screen reader names (decision 117). Every link and button
// is a target of at least 24 by 24 px or spaced as far (WCAG 2.2 2.5.8, axe's target-size).

const PHONE = { width: 320, height: 740 };

/** What makes a page scroll sideways at 320 px, and the tables that could scroll without a named, focusable region. */
async function reflowProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const problems: string[] = [];
    const root = document.documentElement;
    if (root.scrollWidth > root.clientWidth) {
      problems.push(`the page is ${root.scrollWidth} px wide in a ${root.clientWidth} px window`);
    }
    const describe = (element: Element) =>
      `${element.tagName.toLowerCase()}${element.id ? `#${element.id}` : ""}${element.className && typeof element.className === "string" ? `.${element.className.trim().split(/\s+/).join(".")}` : ""}`;
    const nameOf = (element: Element) => {
      const label = element.getAttribute("aria-label");
      if (label?.trim()) return label.trim();
      const ids = element.getAttribute("aria-labelledby")?.split(/\s+/).filter(Boolean) ?? [];
      return ids
        .map((id) => document.getElementById(id)?.textContent?.trim() ?? "")
        .join(" ")
        .trim();
    };
    // Every table sits in a region that may scroll sideways, or fits the screen as it is.
    for (const table of Array.from(document.querySelectorAll("table"))) {
      let scroller: HTMLElement | null = table.parentElement;
      while (scroller && !/auto|scroll/.test(getComputedStyle(scroller).overflowX)) scroller = scroller.parentElement;
      const visible = table.getClientRects().length > 0;
      if (!scroller) {
        if (visible && table.getBoundingClientRect().right > root.clientWidth + 0.5)
          problems.push(`${describe(table)} is wider than the screen and has no region of its own`);
        continue;
      }
      const where = `the region of ${describe(table)} (${table.caption?.textContent?.trim() ?? "no caption"})`;
      if (scroller.getAttribute("role") !== "region") problems.push(`${where} has no role region`);
      else if (!nameOf(scroller)) problems.push(`${where} has no name`);
      if (scroller.tabIndex !== 0) problems.push(`${where} cannot take the keyboard's focus`);
      if (visible && getComputedStyle(scroller).position === "static")
        problems.push(`${where} lets what it hides widen the page (position static)`);
    }
    // Controls are whole on screen, not cut off by their container.
    for (const control of Array.from(document.querySelectorAll<HTMLElement>("a, button, label, summary"))) {
      const box = control.getBoundingClientRect();
      if (box.width === 0 || control.closest("[role=region][tabindex='0'], .visually-hidden, .skip-link")) continue;
      if (box.left < -0.5 || box.right > root.clientWidth + 0.5)
        problems.push(
          `${describe(control)} '${control.textContent?.trim().slice(0, 40)}' reaches beyond the screen (${Math.round(box.left)} to ${Math.round(box.right)} px)`,
        );
    }
    return problems;
  });
}

async function expectReflows(page: Page, path: string) {
  const response = await page.goto(path);
  expect.soft(response?.status(), `${path} answers`).toBeLessThan(500);
  await expect(page.locator("h1").first()).toBeVisible();
  expect.soft(await reflowProblems(page), `${path} at 320 px`).toEqual([]);
  // one run of axe for WCAG 2.1 AA and for the targets' size (WCAG 2.2 AA)
  const targets = await expectAccessible(page, [TARGET_SIZE]).catch((error: Error) => {
    expect.soft(error.message, `${path}: axe`).toBe("");
    return null;
  });
  if (targets) expect.soft(smallTargetsIn(targets), `${path}: targets of at least 24 by 24 px`).toEqual([]);
}

/** axe's tag for WCAG 2.2 AA, whose one rule is target-size (2.5.8). */
const TARGET_SIZE = "wcag22aa";

/** The links and buttons too small or too close to their neighbours, as axe's target-size rule finds them. */
function smallTargetsIn(violations: AxeResults["violations"]): string[] {
  return violations.flatMap((v) =>
    v.nodes.map((n) => `${n.target.join(" ")}: ${n.failureSummary?.split("\n").slice(1).join(" ").trim()}`),
  );
}

/** What axe's target-size rule finds on the page as it is now. */
async function smallTargets(page: Page): Promise<string[]> {
  return smallTargetsIn(await axeViolations(page, [TARGET_SIZE]));
}

/** The href of the first link `links` finds on `path`. */
async function firstHref(page: Page, path: string, links: ReturnType<Page["locator"]>): Promise<string> {
  await page.goto(path);
  await expect(links.first()).toBeVisible();
  const href = await links.first().getAttribute("href");
  expect(href).toBeTruthy();
  return href ?? "/";
}

test.describe("every page at 320 px", () => {
  test.use({ viewport: PHONE });

  test("the pages before signing in reflow", async ({ page }) => {
    test.setTimeout(120_000);
    for (const path of [
      "/login",
      "/login?userType=adviser",
      "/login/help",
      "/login/help/reset",
      "/core/site-terms",
      "/core/privacy-policy",
      "/no/such/page",
    ]) {
      await expectReflows(page, path);
    }
  });

  /** Signs demo.client in and waits for the home page (the machine may be slow). */
  async function signInClient(page: Page) {
    await signIn(page, "demo.client");
    await expect(page).toHaveURL(/\/clients\/home/, { timeout: 30_000 });
  }

  test("a client's home, balance sheet and account pages reflow", async ({ page }) => {
    test.setTimeout(240_000);
    await signInClient(page);
    const paths = [
      "/clients/home",
      "/clients/balance-sheet",
      "/clients/balance-sheet?id=4",
      "/clients/annual-review",
      "/clients/adviser-details",
      "/clients/personal-details",
      "/clients/preferences",
      "/clients/security-questions",
      "/clients/change-password",
      "/clients/biometric-permission",
      "/clients/valuation-report",
    ];
    for (const path of paths) await expectReflows(page, path);
  });

  test("a client's analysis reflows: every tab, with its charts' tables", async ({ page }) => {
    test.setTimeout(240_000);
    await signInClient(page);
    for (const tab of ["accounts", "investments", "allocation", "transactions"])
      await expectReflows(page, `/clients/analysis?tab=${tab}&range=SI`);
  });

  test("a client's analysis drill-down reflows: a portfolio, then an account with all of its tabs", async ({
    page,
  }) => {
    test.setTimeout(240_000);
    await signInClient(page);
    const accounts = page.locator("#analysis__tabs_panel-0 table a[href*='id=']");
    const portfolio = await firstHref(page, "/clients/analysis?tab=accounts", accounts);
    const account = await firstHref(
      page,
      portfolio.replace(/tab=[^&]*&?/, "") + (portfolio.includes("?") ? "&" : "?") + "tab=accounts",
      accounts,
    );
    await page.goto(account);
    const tabs = await page
      .locator(".tabs__tab")
      .evaluateAll((links) => links.map((link) => link.getAttribute("href") ?? ""));
    for (const path of [portfolio, ...tabs.filter(Boolean)]) await expectReflows(page, path);
  });

  test("a client's messages and signatures reflow: the folders, a message, compose and a document to sign", async ({
    page,
  }) => {
    test.setTimeout(240_000);
    await signInClient(page);
    const paths = [
      "/clients/documents-and-messages",
      "/clients/documents-and-messages?compose=true",
      "/clients/documents-and-messages?toBeSigned=true",
    ];
    paths.push(await firstHref(page, "/clients/documents-and-messages", page.locator("a[href*='message=']")));
    paths.push(
      await firstHref(
        page,
        "/clients/documents-and-messages?toBeSigned=true",
        page.getByRole("list", { name: /To be signed/ }).getByRole("link"),
      ),
    );
    for (const path of paths) await expectReflows(page, path);
  });

  test("the other clients' pages reflow", async ({ page }) => {
    test.setTimeout(120_000);
    await signIn(page, "demo.factfind");
    await expect(page).toHaveURL(/\/clients\/home/, { timeout: 30_000 });
    for (const path of ["/clients/home", "/clients/balance-sheet", "/core/factfind"]) await expectReflows(page, path);
  });

  test("an adviser's pages reflow: the search, and the client list with all of its columns", async ({ page }) => {
    test.setTimeout(120_000);
    await signIn(page, "demo.adviser", { adviser: true });
    await expect(page).toHaveURL(/\/advisers/, { timeout: 30_000 });
    for (const path of [
      "/advisers/clients",
      "/advisers/clients?name=&dob=&postcode=",
      "/advisers/clients?name=&dob=&postcode=&pages=2",
    ])
      await expectReflows(page, path);
  });

  // issue 25 item 8: the links back to the login under the recovery forms, on a desktop too
  test("the links back to the login are targets large enough to hit", async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    for (const path of ["/login/help", "/login/help/reset"]) {
      await page.goto(path);
      const back = page.getByRole("link", { name: "Return to login", exact: true });
      await expect(back).toBeVisible();
      const box = await back.boundingBox();
      expect(box!.height, path).toBeGreaterThanOrEqual(24);
      expect(await smallTargets(page), path).toEqual([]);
    }
  });

  test("the balance sheet's Managed / Non-managed / Everything switch shows each choice whole", async ({ page }) => {
    await signIn(page, "demo.client", { path: "/login?redirectTo=/clients/balance-sheet" });
    const everything = page.getByRole("link", { name: "Everything" });
    await expect(everything).toBeVisible();
    for (const name of ["Managed", "Non-managed", "Everything"]) {
      const link = page.getByRole("link", { name, exact: true });
      const box = await link.boundingBox();
      expect(box, name).not.toBeNull();
      expect(box!.x, name).toBeGreaterThanOrEqual(0);
      expect(box!.x + box!.width, name).toBeLessThanOrEqual(PHONE.width);
      const [scroll, client] = await link.evaluate((el) => [el.scrollWidth, el.clientWidth]);
      expect(scroll, `${name} is not cut`).toBeLessThanOrEqual(client);
    }
    await everything.click();
    await expect(everything).toHaveAttribute("aria-current", /true|page/);
  });
  // WCAG 1.4.12 (text spacing): with the spacing a user's style sheet may set, nothing is cut off or
  // scrolls sideways at 320 px (issue 40: the unread badge pushed every signed-in page 3 px wide)
  test("with wider text spacing the signed-in pages still reflow", async ({ page }) => {
    await signIn(page, "demo.client");
    await expect(page).toHaveURL(/\/clients\/home$/);
    for (const path of ["/clients/home", "/clients/documents-and-messages", "/clients/personal-details"]) {
      await page.goto(path);
      await expect(page.locator("h1").first()).toBeVisible();
      await page.addStyleTag({
        content:
          "* { line-height: 1.5 !important; letter-spacing: 0.12em !important; word-spacing: 0.16em !important; } p { margin-bottom: 2em !important; }",
      });
      expect.soft(await reflowProblems(page), `${path} at 320 px with text spacing`).toEqual([]);
    }
  });
});
