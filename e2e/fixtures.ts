import AxeBuilder from "@axe-core/playwright";
import { test as base, expect, type Page } from "@playwright/test";

export const DEMO_PASSWORD = "Demo-pass-1";

type Options = { javaScript: "on" | "off" };

// "JavaScript off" is a browser that runs none of the portal's scripts: its bundles are refused.
// axe itself needs JavaScript in the page, so the browser keeps it (conventions "Tests").
export const test = base.extend<Options>({
  javaScript: ["on", { option: true }],
  page: async ({ page, javaScript }, use, testInfo) => {
    if (javaScript === "off") {
      await page.route(/\/build\/.*\.js(\?.*)?$/, (route) => route.abort());
    }
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
      if (javaScript === "on" || !script(request.url())) tell(`${request.method()} ${request.url()} failed: ${request.failure()?.errorText ?? "?"}`);
    });
    page.on("pageerror", (error) => errors.push(error.message));
    page.on("console", (message) => {
      const told = message.type() === "error" || message.type() === "warning";
      if (told && !message.text().startsWith("Failed to load resource")) tell(`console ${message.type()}: ${message.text().slice(0, 300)}`);
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
      console.log([`what the browser did (${testInfo.title}):`, ...story, `alerts: ${JSON.stringify(alerts)}`, `errors: ${JSON.stringify(errors)}`].join("\n  "));
    }
  },
});

export { expect };

/** WCAG 2.1 AA, checked by axe on the page as it is now. */
export async function expectAccessible(page: Page) {
  const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  const summary = results.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`);
  expect(summary, "axe violations").toEqual([]);
}

export async function signIn(page: Page, username: string, options: { adviser?: boolean; path?: string } = {}) {
  await page.goto(options.path ?? (options.adviser ? "/login?userType=adviser" : "/login"));
  await page.getByLabel("Username").fill(username);
  await page.getByLabel("Password", { exact: true }).fill(DEMO_PASSWORD);
  await page.getByRole("button", { name: "Login", exact: true }).click();
}

export async function signOut(page: Page) {
  await page.getByText("My Account").click();
  await page.getByRole("button", { name: "Log out" }).click();
}
