import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import {
  test as base,
  type BrowserContext,
  type Cookie,
  expect,
  type Locator,
  type Page,
  type Route,
} from "@playwright/test";
import type { AxeResults, RunOptions } from "axe-core";

export const DEMO_PASSWORD = "Demo-pass-1";

type Options = { javaScript: "on" | "off" };

/** The portal's scripts, which a browser "without JavaScript" refuses. */
const SCRIPTS = /\/build\/.*\.js(\?.*)?$/;
const refuse = (route: Route) => route.abort();

// "JavaScript off" is a browser that runs none of the portal's scripts: its bundles are refused.
// axe itself needs JavaScript in the page, so the browser keeps it (conventions "Tests").
/** The pages whose browser runs the portal's scripts (the js project's). */
const scriptsOn = new WeakSet<Page>();

/**
 * The header a journey's own calls to the platform carry: the key the platform asks of its callers,
 * made for the run by scripts/servers.mjs (docs/decisions/186).
 */
export function platformCallerHeaders(): Record<string, string> {
  const key = process.env.E2E_PLATFORM_CALLER_KEY;
  return key ? { "X-Caller-Key": key } : {};
}

export const test = base.extend<Options>({
  javaScript: ["on", { option: true }],
  // the journeys' API calls go to the platform (its /dev endpoints, a sign-in) as well as the portal
  request: async ({ playwright, baseURL }, use) => {
    const request = await playwright.request.newContext({ baseURL, extraHTTPHeaders: platformCallerHeaders() });
    await use(request);
    await request.dispose();
  },
  page: async ({ page, javaScript }, use, testInfo) => {
    if (javaScript === "off") await page.route(SCRIPTS, refuse);
    else scriptsOn.add(page);
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
    await keepOrForgetStoredSession(page.context());
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

/**
 * With JavaScript on, waits until the page's scripts have taken it over (app/root.tsx marks the
 * page): a key pressed before then sends the form as without JavaScript. Without JavaScript, at once.
 */
export async function scriptsReady(page: Page) {
  if (scriptsOn.has(page)) await expect(page.locator("html")).toHaveAttribute("data-scripts", "ready");
}

/** axe-core's own build, read once per worker. */
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

type AxeWindow = { axe?: { run: (context: Document, options: RunOptions) => Promise<AxeResults> } };

/** Puts axe into each frame of the page's document that has none yet (a frame showing a PDF has no document to check). */
async function injectAxe(page: Page) {
  for (const frame of page.frames()) {
    try {
      if (await frame.evaluate(() => typeof (window as AxeWindow).axe === "object")) continue;
      await frame.evaluate(AXE_SOURCE);
      await frame.evaluate("axe.configure({ allowedOrigins: ['<same_origin>'] })");
    } catch (error) {
      if (frame === page.mainFrame()) throw error;
    }
  }
}

/**
 * The page's error summary (GOV.UK's, app/components/error-summary.tsx): the element that takes the
 * focus, whose child is the alert that announces 'There is a problem' and the errors' links.
 */
export function errorSummary(page: Page): Locator {
  return page
    .locator(".error-summary")
    .filter({ has: page.getByRole("alert").filter({ hasText: "There is a problem" }) });
}

/** The WCAG 2.1 A and AA rules of axe, which every page passes. */
export const WCAG21_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"];

/**
 * What axe finds wrong with the page as it is now, checking the rules of the given tags: `axe.run`
 * in the page itself (every frame of the portal's is of its own origin), axe put in once per
 * document, only the violations listed (docs/decisions/151), once the page's entrances have played.
 */
export async function axeViolations(page: Page, tags: string[]): Promise<AxeResults["violations"]> {
  await injectAxe(page);
  const options: RunOptions = { runOnly: { type: "tag", values: tags }, resultTypes: ["violations"] };
  const results = await page.evaluate(async (runOptions) => {
    // axe reads the page as a person sees it once its entrances have played (a toast fades in):
    // the animations that end, not the ones that turn for ever (a spinner)
    const entrances = document.getAnimations().filter((a) => a.effect?.getComputedTiming().iterations !== Infinity);
    await Promise.all(entrances.map((a) => a.finished.catch(() => undefined)));
    return (window as AxeWindow).axe!.run(document, runOptions);
  }, options);
  return results.violations;
}

/**
 * WCAG 2.1 AA, checked by axe on the page as it is now (and the rules of `alsoTags`, whose
 * violations are answered rather than failed). A page that reloads itself (the report job's
 * Refresh header without JavaScript) may do so while axe reads it, the more so on a busy machine:
 * axe then reads the page it reloaded into.
 */
export async function expectAccessible(page: Page, alsoTags: string[] = []): Promise<AxeResults["violations"]> {
  for (let attempt = 1; ; attempt++) {
    try {
      const violations = await axeViolations(page, [...WCAG21_AA, ...alsoTags]);
      const also = violations.filter((v) => alsoTags.some((tag) => v.tags.includes(tag)));
      const summary = violations
        .filter((v) => !also.includes(v))
        .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`);
      expect(summary, "axe violations").toEqual([]);
      return also;
    } catch (error) {
      const reloaded = error instanceof Error && /Execution context was destroyed/.test(error.message);
      if (!reloaded || attempt === 3) throw error;
      await page.waitForLoadState();
    }
  }
}

/**
 * WCAG 2.1 AA in both themes (docs/decisions/203): axe on the page with the device set to light,
 * then to dark, which a user whose theme is the device's setting (every demo login at first) sees
 * as the dark theme, then with the device as it was (dark in the no-js project, decision 212).
 */
export async function expectAccessibleInBothThemes(page: Page, alsoTags: string[] = []): Promise<void> {
  const device = await page.evaluate(() => (matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light"));
  await page.emulateMedia({ colorScheme: "light" });
  try {
    await expectAccessible(page, alsoTags);
    await page.emulateMedia({ colorScheme: "dark" });
    await expect(page.locator("html"), "the page is in the dark theme").toHaveCSS("color-scheme", "dark");
    await expectAccessible(page, alsoTags);
  } finally {
    await page.emulateMedia({ colorScheme: device });
  }
}

/** Signs in through the login form with the demo password; `keyboard` sends the form with Enter, leaving the pointer where it was. */
export async function signInThroughForm(
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

// Journeys that are not about signing in start signed in (decision 151): each worker signs each
// demo login in through the form once, keeps the browser's cookies, and gives the next journey
// that asks for that login the same cookies. Only logins that the form signs straight in (no
// further step) are kept; a journey that logs out, or changes its session (a client in context, a
// language), leaves it behind, and the next one signs in again.
const STORED_LOGINS = new Set([
  "demo.client",
  "demo.partner",
  "demo.assets",
  "demo.messages",
  "demo.factfind",
  "demo.robo",
  "demo.adviser",
  "demo.adviser2",
]);
/** A kept session is not offered once it has been unused for this long (the idle timeout is 30 minutes). */
const STORED_SESSION_REST_MS = 10 * 60_000;

type StoredSession = { cookies: Cookie[]; landing: string; usedAt: number };
const storedSessions = new Map<string, StoredSession>();
/** The context each kept session was lent to in this journey, and its session cookie then. */
const lent = new WeakMap<BrowserContext, { key: string; session: string | undefined }>();

const sessionCookieOf = (cookies: Cookie[]) => cookies.find((c) => c.name === "__session")?.value;

/** Signs `username` in once in a browser context of its own and keeps its cookies. */
async function storeSession(page: Page, key: string, username: string, adviser: boolean): Promise<StoredSession> {
  const browser = page.context().browser();
  if (!browser) throw new Error("signIn needs a page of a launched browser");
  const context = await browser.newContext({ baseURL: baseUrl() });
  try {
    const signing = await context.newPage();
    await signing.route(SCRIPTS, refuse);
    await signInThroughForm(signing, username, { adviser });
    await expect(signing).not.toHaveURL(/\/login/);
    const stored = { cookies: await context.cookies(), landing: new URL(signing.url()).pathname, usedAt: Date.now() };
    storedSessions.set(key, stored);
    return stored;
  } finally {
    await context.close();
  }
}

function baseUrl(): string {
  return process.env.E2E_BASE_URL ?? "http://localhost:3000";
}

/**
 * Signs in with the demo password and lands where the login form would: on `redirectTo` of
 * `path`, or the user's landing page. A demo login without further steps starts from the session
 * this worker keeps for it; anything else (a copy, a login with steps, another portal's form,
 * `keyboard`) goes through the form.
 */
export async function signIn(
  page: Page,
  username: string,
  options: { adviser?: boolean; path?: string; keyboard?: boolean } = {},
) {
  const formPath = options.path ?? "/login";
  const throughForm = options.keyboard || !STORED_LOGINS.has(username) || !formPath.startsWith("/login");
  if (throughForm) return signInThroughForm(page, username, options);
  const adviser = Boolean(options.adviser) || formPath.includes("userType=adviser");
  const key = `${adviser ? "adviser" : "client"}:${username}`;
  let stored = storedSessions.get(key);
  if (!stored || Date.now() - stored.usedAt > STORED_SESSION_REST_MS)
    stored = await storeSession(page, key, username, adviser);
  const context = page.context();
  await context.addCookies(stored.cookies);
  lent.set(context, { key, session: sessionCookieOf(stored.cookies) });
  const target = new URL(formPath, baseUrl()).searchParams.get("redirectTo") ?? stored.landing;
  await page.goto(target);
  if (/\/login/.test(new URL(page.url()).pathname)) {
    // the kept session has ended on the platform: sign in again through the form, and wait for
    // where it leads (a page opened before then would cut the sign-in short)
    storedSessions.delete(key);
    lent.delete(context);
    await signInThroughForm(page, username, options);
    await expect(page).not.toHaveURL(/\/login/);
  }
  // the journey starts on a page its scripts have taken over (with JavaScript on)
  await scriptsReady(page);
}

/** After a journey: a lent session still in its cookie is kept (with its fresher activity), else forgotten. */
async function keepOrForgetStoredSession(context: BrowserContext) {
  const loan = lent.get(context);
  if (!loan) return;
  const stored = storedSessions.get(loan.key);
  if (!stored) return;
  const cookies = await context.cookies().catch(() => null);
  if (!cookies || sessionCookieOf(cookies) !== loan.session) {
    storedSessions.delete(loan.key);
    return;
  }
  // only the activity time moves on: whatever else the journey left (a consent, a toast) stays with it
  const activity = cookies.find((c) => c.name === "__activity");
  const kept = stored.cookies.filter((c) => c.name !== "__activity");
  storedSessions.set(loan.key, { ...stored, cookies: activity ? [...kept, activity] : kept, usedAt: Date.now() });
}

/**
 * Decision 105: `target` is where it was without the page's scripts once they have run and
 * everything in `arrived` shows.
 */
export async function expectStillWhenScriptsArrive(page: Page, path: string, target: Locator, arrived: Locator[]) {
  // leave the page before refusing scripts: one it is still loading (a part shown after hydration)
  // would fail to load there, an error in the console of a page that is no longer the subject
  await page.goto("about:blank");
  await page.route(SCRIPTS, refuse);
  await page.goto(path);
  const before = await target.boundingBox();
  expect(before).not.toBeNull();
  await page.unroute(SCRIPTS, refuse);
  await page.goto(path);
  for (const shown of arrived) await expect(shown).toBeVisible();
  expect(await target.boundingBox()).toEqual(before);
}

/**
 * Holds the page's scripts back until the returned function is called: what a person does on a
 * slow connection before the scripts take the page over.
 */
export async function holdScripts(page: Page): Promise<() => void> {
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  const hold = async (route: Route) => {
    await released;
    await route.continue();
  };
  // the route stays: once released, it lets every script through at once
  await page.route(SCRIPTS, hold);
  return release;
}

/**
 * Chooses `label` in the select `#id` (whose form has a button the scripts take away) in the
 * moment after React has taken the page over (its hydration committed, its handlers live) and
 * before the render that makes it count as hydrated (`useHydrated` true) has been drawn: the page
 * still shows what it shows without JavaScript.
 * Call it with the page's scripts held (`holdScripts`) and release them after. The CPU runs slow
 * meanwhile, so that the moment lasts more than one of the browser's tasks; each task is watched
 * (a message to itself queues behind React's own). Reads React's root, a test's view only.
 */
export async function selectAsScriptsTakeOver(page: Page, id: string, label: string, release: () => void) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: 6 });
  try {
    await page.locator(`select#${id}`).waitFor();
    const chosen = page.evaluate(
      ([id, label]) =>
        new Promise<string>((resolve) => {
          type Root = { stateNode: { pendingLanes: number; current: { memoizedState: { isDehydrated?: boolean } } } };
          const select = document.querySelector<HTMLSelectElement>(`select#${id}`)!;
          const channel = new MessageChannel();
          channel.port1.onmessage = () => {
            const key = Object.keys(document).find((k) => k.startsWith("__reactContainer$"));
            const root = key ? (document as unknown as Record<string, Root>)[key] : undefined;
            const taken = root?.stateNode.current.memoizedState.isDehydrated === false;
            // the form's own button ('Choose report') goes once the page counts as hydrated
            if (!select.form?.querySelector("button")) return resolve("the moment passed unseen");
            // hydrated, and the render that follows it (useHydrated turning true) still to come
            if (taken && root.stateNode.pendingLanes !== 0) {
              select.value = [...select.options].find((o) => o.text === label)!.value;
              select.dispatchEvent(new Event("input", { bubbles: true }));
              select.dispatchEvent(new Event("change", { bubbles: true }));
              return resolve("chosen");
            }
            channel.port2.postMessage(null);
          };
          channel.port2.postMessage(null);
        }),
      [id, label] as const,
    );
    release();
    expect(await chosen).toBe("chosen");
    await scriptsReady(page);
  } finally {
    await cdp.send("Emulation.setCPUThrottlingRate", { rate: 1 });
    await cdp.detach();
  }
}

export async function signOut(page: Page) {
  await page.getByText("My Account").click();
  await page.getByRole("button", { name: "Log out" }).click();
}
