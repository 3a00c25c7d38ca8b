import type { Locator, Page } from "@playwright/test";
import { expect, expectAccessible, expectAccessibleInBothThemes, signIn, signInThroughForm, test } from "./fixtures";
import { copyUser } from "./platform";

// docs/decisions/203: the dark theme (the device's setting, or the user's choice on the Preferences
// page, kept on the platform) and forced colours (Windows high contrast), with and without JavaScript.

const PREFERENCES = "/clients/preferences";
/** The dark theme's page colour (app.css --colour-page). */
const DARK_PAGE = "rgb(16, 22, 31)";
const LIGHT_PAGE = "rgb(244, 246, 249)";

/** The page's colour, once its stylesheet applies (without JavaScript a page is read as it arrives). */
const expectPageColour = (page: Page, colour: string) =>
  expect(page.locator("body")).toHaveCSS("background-color", colour);

const THEME_LABELS = { system: /^System/, light: "Light", dark: "Dark" } as const;

/**
 * Chooses a theme ('Dark', 'Light' by their exact labels: the System option's label names both),
 * saves it, and waits for the page in it and the toast (with JavaScript, the toasts of earlier saves
 * may still show).
 */
async function chooseTheme(page: Page, theme: keyof typeof THEME_LABELS) {
  const label = THEME_LABELS[theme];
  await page.getByRole("radio", { name: label, exact: typeof label === "string" }).check();
  await page.getByRole("button", { name: "Save theme" }).click();
  await expect(page.locator("html")).toHaveAttribute("data-theme", theme);
  await expect(page.getByRole("radio", { name: label, exact: typeof label === "string" })).toBeChecked();
  await expect(page.getByText("Your theme has been saved.").first()).toBeVisible();
}

test.describe("the dark theme", () => {
  // the device starts light in both projects here: these journeys set it themselves (decision 212)
  test.use({ colorScheme: "light" });
  test("a client chooses Dark on the Preferences page: every page is dark from the server, on any device", async ({
    page,
    browser,
    request,
  }) => {
    // a long journey on a busy machine: two sign-ins, three saves, axe
    test.slow();
    // a copy of demo.client: a theme of its own, which no other journey meets
    const username = await copyUser(request, "demo.client", { ownEmail: true });
    await signIn(page, username);
    await expect(page).toHaveURL(/\/clients\/home$/);
    await page.goto(PREFERENCES);
    await expect(page.locator("html")).toHaveAttribute("data-theme", "system");
    await expect(page.getByRole("group", { name: "Theme" })).toBeVisible();
    await expect(page.getByRole("radio", { name: /^System/ })).toBeChecked();
    await expectPageColour(page, LIGHT_PAGE);

    await chooseTheme(page, "dark");
    await expect(page.locator("html")).toHaveAttribute("data-theme", "dark");
    await expect(page.getByRole("radio", { name: "Dark", exact: true })).toBeChecked();
    // dark whatever the device says: the user chose it
    await expectPageColour(page, DARK_PAGE);
    await expect(page.locator("html")).toHaveCSS("color-scheme", "dark");
    // the toast and the page, read by axe in the dark theme
    await expectAccessible(page);

    // the server writes the theme into the page it sends: no light flash before anything runs
    const home = await page.request.get("/clients/home");
    expect(await home.text()).toMatch(/<html [^>]*data-theme="dark"/);

    // kept on the platform: another browser signing in finds it
    const other = await browser.newContext();
    try {
      const second = await other.newPage();
      await signInThroughForm(second, username);
      await expect(second).toHaveURL(/\/clients\/home$/);
      await expect(second.locator("html")).toHaveAttribute("data-theme", "dark");
    } finally {
      await other.close();
    }

    await page.goto(PREFERENCES);
    await chooseTheme(page, "light");
    await expect(page.locator("html")).toHaveAttribute("data-theme", "light");
    // light whatever the device says
    await page.emulateMedia({ colorScheme: "dark" });
    await expectPageColour(page, LIGHT_PAGE);
    await page.emulateMedia({ colorScheme: "light" });

    // and back to the device's setting, which a device set to dark shows dark
    await chooseTheme(page, "system");
    await expect(page.locator("html")).toHaveAttribute("data-theme", "system");
    await page.emulateMedia({ colorScheme: "dark" });
    await expectPageColour(page, DARK_PAGE);
    await page.emulateMedia({ colorScheme: "light" });
  });

  test("an adviser chooses their own theme, whichever client is in context", async ({ page }) => {
    test.slow();
    // demo.adviser2: an adviser whose theme no other journey reads; put back after
    await signIn(page, "demo.adviser2", { adviser: true });
    await page.getByRole("button", { name: "Search" }).click();
    await expect(page.locator("table tbody tr").first()).toBeVisible();
    // the client list in both themes
    await expectAccessibleInBothThemes(page);
    // the first client, in the Messages view whatever their own level
    await page
      .getByLabel(/^Portal view for /)
      .first()
      .selectOption("Messages");
    await page
      .getByRole("button", { name: /^Open / })
      .first()
      .click();
    await expect(page).toHaveURL(/\/clients\//);
    await page.goto(PREFERENCES);
    // the client's preferences are read only; the theme is the adviser's own
    await expect(page.getByText("How Client Online looks to you (not to your client)")).toBeVisible();
    try {
      await chooseTheme(page, "dark");
      await expectPageColour(page, DARK_PAGE);
      await expectAccessible(page);
    } finally {
      await chooseTheme(page, "system");
    }
    await expectPageColour(page, LIGHT_PAGE);
  });

  // The pages below read in both themes with JavaScript; without it every journey's pages are read
  // dark already (the no-js project's device), and the stylesheet is the same either way: @once.
  test("the login page, the home with its chart's table, and the balance sheet read in both themes @once", async ({
    page,
  }) => {
    test.slow();
    await page.goto("/login");
    await expectAccessibleInBothThemes(page);

    await signIn(page, "demo.client");
    await expect(page).toHaveURL(/\/clients\/home$/);
    const figure = page.locator("figure#home-performance-chart");
    await figure.getByText("Show the chart's data as a table").click();
    await expect(figure.getByRole("table")).toBeVisible();
    await expectAccessibleInBothThemes(page);

    await page.goto("/clients/balance-sheet");
    await expectAccessibleInBothThemes(page);
  });

  for (const tabs of [
    ["accounts", "investments", "allocation"],
    ["transactions", "instructions", "payment"],
  ]) {
    test(`the analysis page's ${tabs.join(", ")} tabs read in both themes @once`, async ({ page }) => {
      test.slow();
      await signIn(page, "demo.client");
      for (const tab of tabs) {
        await page.goto(`/clients/analysis?tab=${tab}`);
        await expect(page.locator(".tabs__tab--active")).toBeVisible();
        await expectAccessibleInBothThemes(page);
      }
    });
  }

  test("messages, a message, the documents to sign and the preferences read in both themes @once", async ({ page }) => {
    test.slow();
    await signIn(page, "demo.client");
    await page.goto("/clients/documents-and-messages");
    await expectAccessibleInBothThemes(page);
    await page.getByRole("link", { name: "Documents for your pension transfer" }).click();
    await expect(page).toHaveURL(/message=\d+/);
    await expectAccessibleInBothThemes(page);
    await page.goto("/clients/documents-and-messages?toBeSigned=true");
    await expectAccessibleInBothThemes(page);
    await page.goto(PREFERENCES);
    await expectAccessibleInBothThemes(page);
  });
});

type SystemColours = { canvas: string; canvasText: string; highlight: string; highlightText: string };

/** The system colours as the browser resolves them (forced colours: the user's high-contrast theme's). */
function systemColours(page: Page): Promise<SystemColours> {
  return page.evaluate(() => {
    const probe = document.createElement("span");
    document.body.append(probe);
    const colour = (name: string) => {
      probe.style.color = name;
      return getComputedStyle(probe).color;
    };
    const colours = {
      canvas: colour("Canvas"),
      canvasText: colour("CanvasText"),
      highlight: colour("Highlight"),
      highlightText: colour("HighlightText"),
    };
    probe.remove();
    return colours;
  });
}

const css = (locator: Locator, property: string) =>
  locator.evaluate((element, name) => getComputedStyle(element).getPropertyValue(name), property);

test.describe("forced colours (Windows high contrast)", () => {
  test("the focus ring, the current option, the unread count, chart series, the cookie notice, the logo and the rings stay visible", async ({
    page,
  }) => {
    test.slow();
    await page.emulateMedia({ forcedColors: "active" });
    await page.goto("/login");
    const system = await systemColours(page);
    expect(system.canvasText).not.toBe(system.canvas);

    // the cookie notice stands apart from the page by its edges
    const notice = page.locator(".cookie-notice");
    await expect(notice).toBeVisible();
    await expect(notice).toHaveCSS("border-bottom-style", "solid");
    await expect(notice).toHaveCSS("border-bottom-color", system.canvasText);

    // the logo (the wordmark's words) keeps its colours on a white plate
    const brand = page.locator(".brand").first();
    await expect(brand).toHaveCSS("background-color", "rgb(255, 255, 255)");
    await expect(brand.getByRole("img")).toBeVisible();

    // the focus ring in the system's highlight
    const username = page.getByLabel("Username");
    await username.focus();
    await expect(username).toHaveCSS("outline-style", "solid");
    await expect(username).toHaveCSS("outline-width", "3px");
    await expect(username).toHaveCSS("outline-color", system.highlight);

    await signIn(page, "demo.client");
    await expect(page).toHaveURL(/\/clients\/home$/);

    // the unread count as a selected item
    const badge = page.locator(".main-nav .badge--count").first();
    await expect(badge).toBeVisible();
    await expect(badge).toHaveCSS("background-color", system.highlight);
    await expect(badge).toHaveCSS("color", system.highlightText);

    // the current option of a switch, apart from the others
    const current = page.locator('.segmented__option[aria-current="true"]').first();
    const other = page.locator('.segmented__option:not([aria-current="true"])').first();
    await expect(current).toHaveCSS("background-color", system.highlight);
    await expect(current).toHaveCSS("color", system.highlightText);
    await expect(other).toHaveCSS("background-color", system.canvas);

    // the rings: their share in the highlight, their percentages in the text colour
    const ring = page.locator(".radial").first();
    await expect(ring.locator(".radial__label")).toBeVisible();
    expect(await css(ring.locator(".radial__label"), "fill")).toBe(system.canvasText);
    expect(await css(ring.locator(".radial__value"), "stroke")).toBe(system.highlight);

    // the performance chart: each series in the text colour, told apart by its dash pattern
    await page.goto("/clients/analysis");
    const lines = page.locator("figure#analysis-performance-chart .chart-figure__svg--wide path[data-stroke]");
    await expect(lines.first()).toBeVisible();
    expect(await lines.count()).toBeGreaterThanOrEqual(2);
    const drawn = await lines.evaluateAll((paths) =>
      paths.map((p) => ({ stroke: getComputedStyle(p).stroke, dashes: getComputedStyle(p).strokeDasharray })),
    );
    expect(drawn.map((d) => d.stroke)).toEqual(drawn.map(() => system.canvasText));
    expect(new Set(drawn.map((d) => d.dashes)).size).toBe(drawn.length);
    // the legend draws each series the same way
    const swatches = page.locator("figure#analysis-performance-chart .chart-legend line[data-stroke]");
    const legend = await swatches.evaluateAll((items) => items.map((l) => getComputedStyle(l).strokeDasharray));
    expect(new Set(legend).size).toBe(legend.length);
    expect(legend.sort()).toEqual(drawn.map((d) => d.dashes).sort());

    // the allocation's slices and their legend's blocks: each colour's own pattern in the system's
    // two colours, edged in the text colour (decision 215)
    await page.goto("/clients/analysis?tab=allocation");
    const panel = page.locator(".allocation-panel").first();
    await panel.locator("summary.allocation-panel__summary").click();
    const pie = panel.locator(".chart-figure__svg svg");
    await expect(pie).toBeVisible();
    const slices = await pie.locator("[data-fill]").evaluateAll((paths) =>
      paths.map((p) => ({
        colour: p.getAttribute("data-fill"),
        fill: getComputedStyle(p).fill,
        stroke: getComputedStyle(p).stroke,
      })),
    );
    expect(new Set(slices.map((s) => s.colour)).size).toBeGreaterThanOrEqual(3);
    for (const slice of slices) {
      expect(slice.fill).toBe(`url("#chart-pattern-${slice.colour}")`);
      expect(slice.stroke).toBe(system.canvasText);
    }
    const blocks = await panel
      .locator(".chart-legend rect[data-fill]")
      .evaluateAll((rects) => rects.map((r) => getComputedStyle(r).fill));
    for (const block of blocks) expect(block).toMatch(/^url\("#chart-pattern-[1-9]"\)$/);
    expect(new Set(blocks)).toEqual(new Set([...blocks, ...slices.map((s) => s.fill)]));
    // the patterns are on the page once, drawn in the text colour on the background
    const patterns = page.locator("svg.chart-patterns pattern");
    await expect(patterns).toHaveCount(9);
    expect(await css(patterns.nth(1).locator(".chart-patterns__ink"), "stroke")).toBe(system.canvasText);
    expect(await css(patterns.nth(1).locator(".chart-patterns__ground"), "fill")).toBe(system.canvas);
  });
});
