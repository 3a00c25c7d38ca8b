import AxeBuilder from "@axe-core/playwright";
import { test as base, expect, type Locator, type Page, type Route } from "@playwright/test";

export const DEMO_PASSWORD = "Demo-pass-1";

type Options = { javaScript: "on" | "off" };

/** The portal's scripts, which a browser "without JavaScript" refuses. */
const SCRIPTS = /\/build\/.*\.js(\?.*)?$/;
const refuse = (route: Route) => route.abort();

// "JavaScript off" is a browser that runs none of the portal's scripts: its bundles are refused.
// axe itself needs JavaScript in the page, so the browser keeps it (conventions "Tests").
export const test = base.extend<Options>({
  javaScript: ["on", { option: true }],
  page: async ({ page, javaScript }, use, testInfo) => {
    if (javaScript === "off") await page.route(SCRIPTS, refuse);
    const errors: string[] = [];
    // What the browser did, told when a journey fails (the CI log is all a failed run leaves).
    const story: string[] = [];
    const started = Date.now();
    const tell = (line: string) => {
      story.push(`${((Date.now() - started) / 1000).toFixed(2)}s ${line}`);
      if (story.length > 60) story.shift();
    };
    page.on("framenavigated", (frame) => {
      if (frame === page.mainFrame()) tell(`at ${frame.url()}`);
    });
    const script = (url: string) => /\/build\//.test(url);
    page.on("response", (response) => {
      if (!script(response.url())) tell(`${response.request().method()} ${response.url()} ${response.status()}`);
    });
    page.on("requestfailed", (request) => {
      if (javaScript === "on" || !script(request.url()))
        tell(`${request.method()} ${request.url()} failed: ${request.failure()?.errorText ?? "?"}`);
    });
    page.on("pageerror", (error) => errors.push(error.message));
    page.on("console", (message) => {
      const told = message.type() === "error" || message.type() === "warning";
      if (told && !message.text().startsWith("Failed to load resource"))
        tell(`console ${message.type()}: ${message.text().slice(0, 300)}`);
      if (message.type() !== "error") return;
      const text = message.text();
      // Error statuses of the pages under test (403, 404, 503) and the refused bundles are expected.
      if (text.startsWith("Failed to load resource")) return;
      if (javaScript === "off") return;
      errors.push(text);
    });
    await use(page);
    if (testInfo.status === testInfo.expectedStatus) {
      expect(errors, "unexpected errors in the browser console").toEqual([]);
    } else {
      const alerts = await page
        .locator("[role=alert], .alert, .error-summary, .field__error")
        .allInnerTexts()
        .catch(() => ["(page closed)"]);
      console.log(
        [
          `what the browser did (${testInfo.title}):`,
          ...story,
          `alerts: ${JSON.stringify(alerts)}`,
          `errors: ${JSON.stringify(errors)}`,
        ].join("\n  "),
      );
    }
  },
});

export { expect };

/** WCAG 2.1 AA, checked by axe on the page as it is now. */
export async function expectAccessible(page: Page) {
  const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  const summary = results.violations.map(
    (v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`,
  );
  expect(summary, "axe violations").toEqual([]);
}

/** Signs in with the demo password; `keyboard` sends the form with Enter, leaving the pointer where it was. */
export async function signIn(
  page: Page,
  username: string,
  options: { adviser?: boolean; path?: string; keyboard?: boolean } = {},
) {
  await page.goto(options.path ?? (options.adviser ? "/login?userType=adviser" : "/login"));
  await page.getByLabel("Username").fill(username);
  const password = page.getByLabel("Password", { exact: true });
  await password.fill(DEMO_PASSWORD);
  if (options.keyboard) await password.press("Enter");
  else await page.getByRole("button", { name: "Login", exact: true }).click();
}

/**
 * Decision 105: `target` is where it was without the page's scripts once they have run and
 * everything in `arrived` shows.
 */
export async function expectStillWhenScriptsArrive(page: Page, path: string, target: Locator, arrived: Locator[]) {
  await page.route(SCRIPTS, refuse);
  await page.goto(path);
  const before = await target.boundingBox();
  expect(before).not.toBeNull();
  await page.unroute(SCRIPTS, refuse);
  await page.goto(path);
  for (const shown of arrived) await expect(shown).toBeVisible();
  expect(await target.boundingBox()).toEqual(before);
}

export async function signOut(page: Page) {
  await page.getByText("My Account").click();
  await page.getByRole("button", { name: "Log out" }).click();
}
