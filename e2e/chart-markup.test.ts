import type { Locator, Page } from "@playwright/test";
import { expect, expectAccessible, scriptsReady, signIn, test } from "./fixtures";

// Decision 156 (issue 38): a chart's SVG is sent once. A page's HTML holds the markup and its loader
// data (`window.__remixContext`) only names it; a data request (a client-side navigation) carries
// it, and the browser renders it. With JavaScript, the chart read back from the page stays through
// hydration, re-renders and navigations.

type Json = Record<string, unknown>;

/** The page's HTML, and the loader data Remix wrote into it (its `__remixContext` script). */
async function documentOf(page: Page, path: string) {
  const response = await page.request.get(path);
  expect(response.status(), path).toBe(200);
  const html = await response.text();
  const start = html.indexOf("window.__remixContext");
  expect(start, `${path} has its loader data`).toBeGreaterThan(0);
  return { html, loaderData: html.slice(start, html.indexOf("</script>", start)) };
}

/** What a data request for `path` answers, as a client-side navigation asks for it. */
async function dataOf(page: Page, path: string, route: string): Promise<Json> {
  const response = await page.request.get(`${path}${path.includes("?") ? "&" : "?"}_data=${encodeURIComponent(route)}`);
  expect(response.status(), path).toBe(200);
  return (await response.json()) as Json;
}

/** Each chart the loader data names is in the page's markup under its key, as an SVG. */
function expectNamedChartsInMarkup(html: string, loaderData: string, count: number) {
  expect(loaderData).not.toMatch(/<svg|\\u003csvg|viewBox/i);
  const keys = [...loaderData.matchAll(/\{"chartMarkup":"(chart-\d+)"\}/g)].map((m) => m[1]);
  expect(keys).toHaveLength(count);
  for (const key of keys) expect(html).toContain(`data-chart-markup="${key}"><svg viewBox=`);
}

const svgsOf = (value: unknown): unknown[] =>
  typeof value !== "object" || value === null
    ? []
    : Object.entries(value).flatMap(([name, inner]) =>
        name === "svg" || name === "narrowSvg" ? [inner] : svgsOf(inner),
      );

test.describe("a chart's SVG, sent once", () => {
  test("is in the page's markup and only named in its loader data; a data request carries it @once", async ({
    page,
  }) => {
    await signIn(page, "demo.client");
    // the home: the performance chart, wide and narrow
    const home = await documentOf(page, "/clients/home");
    expectNamedChartsInMarkup(home.html, home.loaderData, 2);
    const homeSvgs = svgsOf(await dataOf(page, "/clients/home", "routes/clients.home"));
    expect(homeSvgs).toHaveLength(2);
    for (const svg of homeSvgs) expect(svg).toMatch(/^<svg viewBox="0 0 \d+ \d+"[^>]* role="img"/);

    // the allocation tab: the performance chart (wide and narrow) and one chart per allocation type
    const allocation = await documentOf(page, "/clients/analysis?tab=allocation");
    expectNamedChartsInMarkup(allocation.html, allocation.loaderData, 5);
    const allocationSvgs = svgsOf(await dataOf(page, "/clients/analysis?tab=allocation", "routes/clients.analysis"));
    expect(allocationSvgs).toHaveLength(5);
    for (const svg of allocationSvgs) expect(svg).toMatch(/^<svg viewBox="0 0 \d+ \d+"[^>]* role="img"/);
  });

  test("stays shown after hydration, re-renders and client-side navigations away and back @js-only", async ({
    page,
  }) => {
    test.slow();
    // Links are followed from the keyboard: a pointer resting on a chart turns it interactive.
    const follow = (link: Locator) => link.press("Enter");
    const staticSvg = (figure: Locator) => figure.locator(".chart-figure__svg--wide svg");
    const sameDocument = () => page.evaluate(() => "sameDocument" in window);

    // the home, loaded as a document: the chart named in the loader data, read back from the page
    await signIn(page, "demo.client");
    await expect(page).toHaveURL(/\/clients\/home$/);
    await page.evaluate(() => Object.assign(window, { sameDocument: true }));
    const home = page.locator("figure#home-performance-chart");
    await expect(home.locator(".chart-figure__svg--wide[data-chart-markup] svg")).toBeVisible();
    await expect(staticSvg(home).locator("path").first()).toBeAttached();
    // pointed at, the chart waits for its interactive version behind the same SVG, shown anew
    let holding = true;
    const releases: Array<() => void> = [];
    await page.route(/interactive-line-chart/, async (route) => {
      if (holding) await new Promise<void>((resolve) => releases.push(resolve));
      await route.continue();
    });
    const asked = page.waitForRequest(/interactive-line-chart/);
    await home.locator(".chart-figure__chart").hover();
    await asked;
    await expect(staticSvg(home)).toBeVisible();
    await expect(staticSvg(home).locator("path").first()).toBeAttached();
    holding = false;
    for (const release of releases.splice(0)) release();
    await expect(home.locator(".chart-figure__interactive")).toBeVisible();
    await page.mouse.move(0, 0);

    // away to the analysis and back: both charts come with their data requests
    await follow(page.getByRole("link", { name: "See the analysis of your portfolio" }));
    await expect(page).toHaveURL(/\/clients\/analysis$/);
    const analysis = page.locator("figure#analysis-performance-chart");
    await expect(staticSvg(analysis)).toBeVisible();
    await expect(analysis.locator("[data-chart-markup]")).toHaveCount(0);
    await page.goBack();
    await expect(page).toHaveURL(/\/clients\/home$/);
    await expect(staticSvg(home)).toBeVisible();
    await expect(staticSvg(home).locator("path").first()).toBeAttached();
    expect(await sameDocument()).toBe(true);

    // the investments tab, loaded as a document: a row opened in place re-renders the page with
    // the same loader data (the analysis's loader is not asked again), and the chart stays
    await page.goto("/clients/analysis?tab=investments");
    await scriptsReady(page);
    await page.evaluate(() => Object.assign(window, { sameDocument: true }));
    await expect(analysis.locator(".chart-figure__svg--wide[data-chart-markup] svg")).toBeVisible();
    const analysisData: string[] = [];
    page.on("request", (request) => {
      if (request.url().includes("_data=routes%2Fclients.analysis")) analysisData.push(request.url());
    });
    const holdings = page.locator("#analysis__tabs_panel-1").getByRole("table", { name: /Holdings of the accounts/ });
    const toggle = holdings.getByRole("button", { name: /holdings\)$/ }).first();
    const expanded = await toggle.getAttribute("aria-expanded");
    await follow(toggle);
    await expect(page).toHaveURL(/open=/);
    await expect(toggle).toHaveAttribute("aria-expanded", expanded === "true" ? "false" : "true");
    expect(analysisData).toEqual([]);
    await expect(analysis.locator(".chart-figure__svg--wide[data-chart-markup] svg")).toBeVisible();
    await expect(staticSvg(analysis).locator("path").first()).toBeAttached();

    // the chart's own control: Value and back to Percentage, each a data request
    await follow(page.getByRole("link", { name: "Value", exact: true }));
    await expect(page).toHaveURL(/chart=value/);
    await expect(analysis.locator("figcaption")).toContainText("Value and net amount invested");
    await expect(staticSvg(analysis)).toBeVisible();
    await follow(page.getByRole("link", { name: "Percentage", exact: true }));
    await expect(analysis.locator(".chart-legend")).toContainText("FTSE All-Share");
    await expect(staticSvg(analysis)).toBeVisible();
    expect(await sameDocument()).toBe(true);

    // the allocation tab, loaded as a document, then left for the investments and taken again
    await page.goto("/clients/analysis?tab=allocation");
    await scriptsReady(page);
    await page.evaluate(() => Object.assign(window, { sameDocument: true }));
    const sector = page.getByRole("region", { name: "Sector", exact: true });
    const openSector = async () => {
      await sector.locator("details.allocation-panel__body > summary").press("Enter");
      await expect(sector.getByRole("img", { name: /^Sector allocation at/ })).toBeVisible();
    };
    await openSector();
    await expect(sector.locator("[data-chart-markup]")).toHaveCount(1);
    await follow(page.getByRole("link", { name: "Investments", exact: true }));
    await expect(page).toHaveURL(/tab=investments/);
    await follow(page.getByRole("link", { name: "Allocation", exact: true }));
    await expect(page).toHaveURL(/tab=allocation/);
    await openSector();
    expect(await sameDocument()).toBe(true);
    await expectAccessible(page);
  });
});
