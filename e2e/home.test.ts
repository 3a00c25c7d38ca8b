import type { Page } from "@playwright/test";
import { expect, expectAccessible, scriptsReady, signIn, signOut, test } from "./fixtures";

// spec 001 §2.1 and §2.6: the clients home dashboard, with JavaScript on and off.

const overviewValue = (page: Page) =>
  page.locator(".overview-tile").filter({ hasText: "Portfolio value" }).locator(".overview-tile__figure");
const tile = (page: Page, name: RegExp | string) =>
  page.locator(".summary-tile--group").filter({ has: page.getByRole("heading", { name }) });
const accountTile = (page: Page, name: string) =>
  page.locator(".summary-tile--account").filter({ has: page.getByRole("heading", { name }) });

test.describe("the clients home dashboard", () => {
  test("shows the portfolio overview, chart, summary and other assets, as bookmarkable views", async ({ page }) => {
    // a long journey: five views, each checked by axe, on a busy machine
    test.slow();
    await signIn(page, "demo.client");
    await expect(page).toHaveURL(/\/clients\/home$/);
    await expect(page.getByRole("heading", { level: 1, name: "Welcome, Ellie" })).toBeVisible();

    // overview tiles: value, time-weighted performance, change in value, whole pounds
    await expect(overviewValue(page)).toHaveText(/^£\d{1,3}(,\d{3})+$/);
    await expect(page.locator(".overview-tile").filter({ hasText: "Performance (time-weighted)" })).toContainText(
      /[+-]?\d+\.\d{2}%/,
    );
    await expect(page.locator(".overview-tile").filter({ hasText: "Change in value" })).toContainText(/£/);
    await expect(page.getByRole("link", { name: "1 year", exact: true })).toHaveAttribute("aria-current", "true");

    // the chart is an image with a caption, and its data is a table
    const figure = page.locator("figure#home-performance-chart");
    await expect(figure.locator("figcaption")).toContainText("Cumulative time-weighted performance of your accounts");
    await expect(figure.getByRole("img").first()).toBeVisible();
    await figure.getByText("Show the chart's data as a table").click();
    await expect(figure.getByRole("table")).toBeVisible();
    expect(await figure.getByRole("table").locator("tbody tr").count()).toBeGreaterThan(10);

    // the account summary: own portfolios as tiles, James's in the linked section, Olivia's never
    await expect(page.getByRole("heading", { level: 2, name: "Your portfolios" })).toBeVisible();
    await expect(tile(page, /Ellie's portfolio/)).toContainText("(2 accounts)");
    await expect(tile(page, /Joint portfolio/)).toContainText("(1 account)");
    await expect(tile(page, /Hartley Family Trust/)).toBeVisible();
    await expect(page.getByRole("heading", { level: 3, name: "Linked accounts" })).toBeVisible();
    await expect(tile(page, /James's portfolio/)).toBeVisible();
    await expect(page.getByText("Olivia")).toHaveCount(0);
    // decision 107: the overview says what its total covers; her portfolios show their share of it,
    // James's (in none of her totals) no share: never '100% of the total'
    await expect(page.locator(".home-coverage")).toHaveText(
      "Total of your own accounts. Linked accounts are listed on their own and not included.",
    );
    await expect(tile(page, /Ellie's portfolio/)).toContainText(/\d+% of the total/);
    await expect(tile(page, /Ellie's portfolio/).locator(".radial")).toHaveCount(1);
    await expect(tile(page, /James's portfolio/)).not.toContainText("of the total");
    await expect(tile(page, /James's portfolio/).locator(".radial")).toHaveCount(0);
    await expect(
      page.getByText(
        "These accounts belong to someone linked to you: they are not part of your total, so no share of it is shown.",
      ),
    ).toBeVisible();

    // other assets: Ellie's own card, the top items of each kind
    const assets = page.locator("#other-assets");
    await expect(assets.getByRole("heading", { level: 2, name: "Other assets" })).toBeVisible();
    await expect(assets.getByRole("heading", { level: 3, name: "Ellie Hartley" })).toBeVisible();
    // her portfolio accounts are among them (decision 109), with what she holds elsewhere
    await expect(assets.getByRole("heading", { name: "5 investments" })).toBeVisible();
    await expect(assets.getByRole("heading", { name: "4 pensions" })).toBeVisible();
    await expect(assets.getByRole("heading", { name: "1 liability" })).toBeVisible();
    await expect(assets).toContainText("Holiday cottage, Padstow");
    await expect(assets).toContainText("Ellie Self-Invested Personal Pension");
    // decision 207: the joint account reads in full under Your portfolios and as her half here: said so
    const jointShare = assets.locator(".asset-card__items li").filter({ hasText: "Joint General Investment Account" });
    await expect(jointShare).toContainText("Your share (50%)");
    const pounds = (text: string) => Number(/£([\d,]+)/.exec(text)![1]!.replace(/,/g, ""));
    const whole = pounds(
      await tile(page, /Joint portfolio/)
        .locator(".summary-tile__value")
        .first()
        .innerText(),
    );
    const share = pounds(await jointShare.locator(".asset-card__value").innerText());
    expect(Math.abs(2 * share - whole)).toBeLessThanOrEqual(1);
    // a pension is wholly hers: nothing said
    await expect(
      assets.locator(".asset-card__items li").filter({ hasText: "Ellie Self-Invested Personal Pension" }),
    ).not.toContainText("share");
    await expect(page.getByRole("heading", { name: "Basis of valuation" })).toBeVisible();
    await expectAccessible(page);

    // opening a portfolio lists its accounts
    const open = page.getByRole("button", { name: "Show the accounts of Ellie's portfolio" });
    await expect(open).toHaveAttribute("aria-expanded", "false");
    await open.click();
    await expect(page).toHaveURL(/expand=portfolio-\d+/);
    const close = page.getByRole("button", { name: "Hide the accounts of Ellie's portfolio" });
    await expect(close).toHaveAttribute("aria-expanded", "true");
    const accounts = tile(page, /Ellie's portfolio/).locator(".summary-tile__accounts");
    await expect(accounts.getByRole("heading", { name: "Ellie Stocks and Shares ISA" })).toBeVisible();
    await expect(accounts.getByRole("heading", { name: "Ellie Self-Invested Personal Pension" })).toBeVisible();
    // the 'Not managed' deposit account is not part of the summary
    await expect(page.getByText("Ellie Premium Bonds and deposits")).toHaveCount(0);
    await expectAccessible(page);
    await close.click();
    await expect(page.getByRole("button", { name: "Show the accounts of Ellie's portfolio" })).toHaveAttribute(
      "aria-expanded",
      "false",
    );
    await expect(page.getByRole("heading", { name: "Ellie Stocks and Shares ISA" })).toHaveCount(0);

    // the secondary timeframe, kept in the address
    const oneYear = await overviewValue(page).textContent();
    const period = await page.locator("#overview-heading + .page__meta").textContent();
    await page.getByRole("link", { name: "Since inception" }).click();
    await expect(page).toHaveURL(/timeframe=secondary/);
    await expect(page.getByRole("link", { name: "Since inception" })).toHaveAttribute("aria-current", "true");
    await expect(page.locator("#overview-heading + .page__meta")).not.toHaveText(period ?? "");
    // the value today is the same whatever the period
    await expect(overviewValue(page)).toHaveText(oneYear ?? "");
    await expectAccessible(page);

    // plan currency: James's US dollar account shows dollars
    await page.getByRole("link", { name: "Original plan currency" }).click();
    await expect(page).toHaveURL(/currency=plan/);
    await page.getByRole("button", { name: "Show the accounts of James's portfolio" }).click();
    await expect(accountTile(page, "James US dollar account")).toContainText("$");
    const bookmark = page.url();
    expect(bookmark).toMatch(/timeframe=secondary/);
    await page.goto(bookmark);
    await expect(accountTile(page, "James US dollar account")).toContainText("$");
    await expect(page.getByRole("link", { name: "Since inception" })).toHaveAttribute("aria-current", "true");
  });

  test("the other-assets summary links to each family member's balance sheet", async ({ page }) => {
    await signIn(page, "demo.client");
    const assets = page.locator("#other-assets");
    await expect(assets.getByRole("link", { name: "4 pensions" })).toHaveAttribute(
      "href",
      "/clients/balance-sheet?id=1&asset=1",
    );
    await assets.getByRole("link", { name: "View assets of James Hartley" }).click();
    await expect(page).toHaveURL(/\/clients\/balance-sheet\?id=2$/);
    await expect(page.getByRole("heading", { level: 1, name: "Balance Sheet" })).toBeVisible();
    await expect(page.getByLabel("Show the assets of")).toHaveValue("2");

    // the home still shows another member's cards with ?id=
    await page.goto("/clients/home?id=2");
    await expect(assets.getByRole("heading", { level: 3, name: "James Hartley" })).toBeVisible();
    await expect(assets.getByRole("heading", { name: "1 annuity" })).toBeVisible();
    await expect(assets).toContainText("Holiday cottage, Padstow");
    await expect(assets.getByRole("link", { name: "1 annuity" })).toHaveAttribute(
      "href",
      "/clients/balance-sheet?id=2&asset=2",
    );
    await expect(assets.getByRole("link", { name: "View assets of Ellie Hartley" })).toHaveAttribute(
      "href",
      "/clients/balance-sheet?id=1",
    );
    await expectAccessible(page);

    // a member outside the family is not shown: the page falls back to the client herself
    await page.goto("/clients/home?id=4");
    await expect(assets.getByRole("heading", { level: 3, name: "Ellie Hartley" })).toBeVisible();
    await expect(page.getByText("Marcus Bell")).toHaveCount(0);
  });

  test("a client with assets access sees the assets-only view @once", async ({ page }) => {
    await signIn(page, "demo.assets");
    await expect(page).toHaveURL(/\/clients\/home$/);
    await expect(page.getByRole("heading", { level: 1, name: "Welcome, Marcus" })).toBeVisible();
    await expect(page.getByRole("heading", { name: "Your portfolio" })).toHaveCount(0);
    await expect(page.getByRole("link", { name: "1 year" })).toHaveCount(0);
    const assets = page.locator("#other-assets");
    await expect(assets.getByRole("heading", { level: 3, name: "Marcus Bell" })).toBeVisible();
    // wrapped SIPP holdings are shown with the pensions, and the SIPP's loan with them
    await expect(assets.getByRole("heading", { name: "4 pensions" })).toBeVisible();
    await expect(assets.getByRole("heading", { name: "1 liability" })).toBeVisible();
    await expect(assets.getByRole("heading", { name: "1 annuity" })).toBeVisible();
    await expectAccessible(page);
  });

  test("a messages-only client is sent to documents and messages, and home is denied @once", async ({ page }) => {
    await signIn(page, "demo.messages");
    await expect(page).toHaveURL(/\/clients\/documents-and-messages$/);
    const response = await page.goto("/clients/home");
    expect(response?.status()).toBe(403);
    await expect(page.getByRole("heading", { level: 1, name: "Access Denied" })).toBeVisible();
  });

  test("an adviser with the client in context sees the client's home", async ({ page }) => {
    await signIn(page, "demo.client");
    await expect(page).toHaveURL(/\/clients\/home$/);
    const clientValue = await overviewValue(page).textContent();
    const clientAssets = await page.locator(".assets-member__total").textContent();
    await signOut(page);
    await expect(page).toHaveURL(/\/login\?reason=UserLoggedOut$/);

    await signIn(page, "demo.adviser", { adviser: true });
    await expect(page).toHaveURL(/\/advisers\/clients$/);
    await page.getByLabel("Client name").fill("Hartley");
    await page.getByRole("button", { name: "Search" }).click();
    await page.getByRole("button", { name: "Open Hartley, Eleanor" }).click();
    await expect(page).toHaveURL(/\/clients\/home$/);
    await expect(page.getByRole("heading", { level: 1, name: "Welcome, Ellie" })).toBeVisible();
    await expect(overviewValue(page)).toHaveText(clientValue ?? "");
    await expect(page.locator(".assets-member__total")).toHaveText(clientAssets ?? "");
    await expect(tile(page, /James's portfolio/)).toBeVisible();
    await expectAccessible(page);
  });

  test("rows open with the keyboard: Enter and Space @js-only", async ({ page }) => {
    await signIn(page, "demo.client");
    await scriptsReady(page);
    const open = page.getByRole("button", { name: "Show the accounts of Joint portfolio" });
    await open.focus();
    await page.keyboard.press("Enter");
    const close = page.getByRole("button", { name: "Hide the accounts of Joint portfolio" });
    await expect(close).toHaveAttribute("aria-expanded", "true");
    await expect(close).toBeFocused();
    await expect(page.getByRole("heading", { name: "Joint General Investment Account" })).toBeVisible();
    await page.keyboard.press(" ");
    await expect(page.getByRole("button", { name: "Show the accounts of Joint portfolio" })).toHaveAttribute(
      "aria-expanded",
      "false",
    );
    await expect(page.getByRole("heading", { name: "Joint General Investment Account" })).toHaveCount(0);
  });

  test("the chart becomes interactive when pointed at, loading the chart library only then @js-only", async ({
    page,
  }) => {
    const chartScripts: string[] = [];
    page.on("request", (r) => {
      if (r.resourceType() === "script" && /interactive-line-chart|nivo/i.test(r.url())) chartScripts.push(r.url());
    });
    // Signed in from the keyboard: a pointer left where the Login button was could rest on the
    // home's chart, and pointing at it is what loads the library.
    await signIn(page, "demo.client", { keyboard: true });
    await expect(page).toHaveURL(/\/clients\/home$/);
    const figure = page.locator("figure#home-performance-chart");
    await expect(figure.locator(".chart-figure__svg--wide svg")).toBeVisible();
    expect(chartScripts).toEqual([]);
    await figure.locator(".chart-figure__chart").hover();
    await expect(
      figure.locator(".chart-figure__interactive").getByRole("img", { name: /^Cumulative time-weighted performance/ }),
    ).toBeVisible();
    expect(chartScripts.length).toBeGreaterThan(0);
    // a tooltip with the date and the value follows the pointer
    const box = await figure.locator(".chart-figure__interactive").boundingBox();
    if (!box) throw new Error("the interactive chart has no box");
    await page.mouse.move(box.x + box.width * 0.6, box.y + box.height * 0.5);
    await expect(page.locator(".chart-tooltip")).toContainText("%");
  });
});
