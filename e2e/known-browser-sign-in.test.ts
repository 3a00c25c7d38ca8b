import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { createServer } from "node:net";
import type { Page } from "@playwright/test";
import { DEMO_PASSWORD, expect, expectAccessible, signOut, test } from "./fixtures";
import { copyUser, platformUrl } from "./platform";

// Decision 173 (issue 39, finding 3): strangers' wrong passwords for a username stop every browser
// that has not signed in as that user, but never the owner's browser that has (its device cookie).
// The journeys' portal raises the limits (scripts/servers.mjs), so this journey runs a portal of
// the same build with the limits an operator gets (4 failed sign-ins per username per 15 minutes)
// against the journeys' platform, and a copy of demo.client per project.

const INCORRECT = "Either your username or your password is incorrect.";
const STRANGERS_LIMITED =
  "Too many failed attempts to log in as this user from browsers that have not logged in as this user before. " +
  "Please wait 15 minutes and try again, or log in from a browser you have logged in with before.";
/** The portal's scripts, refused in the no-js project's browsers (as e2e/fixtures.ts does). */
const SCRIPTS = /\/build\/.*\.js(\?.*)?$/;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

let portal: ChildProcess | null = null;
let base = "";

test.beforeAll(async () => {
  // a portal's first start on a busy 2-core machine
  test.setTimeout(90_000);
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: "production",
    PORT: String(port),
    PLANNING_API_URL: platformUrl(),
    PLANNING_API_KEY: process.env.E2E_PLATFORM_CALLER_KEY,
    SESSION_SECRET: randomBytes(32).toString("hex"),
    COOKIE_SECURE: "false",
    LOG_LEVEL: "silent",
  };
  // the limits' defaults, whatever the journeys' environment says
  for (const name of ["RATE_LIMIT_SIGN_IN", "RATE_LIMIT_RECOVERY", "RATE_LIMIT_SIGN_IN_FAILURES", "REDIS_URL"])
    delete env[name];
  portal = spawn(process.execPath, ["scripts/portal-server.mjs"], { stdio: ["ignore", "ignore", "inherit"], env });
  base = `http://localhost:${port}`;
  await expect
    .poll(async () => (await fetch(`${base}/healthz`).catch(() => null))?.status ?? 0, { timeout: 60_000 })
    .toBe(200);
});

test.afterAll(() => {
  portal?.kill("SIGTERM");
});

/** One post of the login form; its answer is on the page once the password field is empty again. */
async function tryPassword(page: Page, username: string, password: string) {
  await page.getByLabel("Username").fill(username);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await Promise.all([
    page.waitForResponse((r) => r.request().method() === "POST" && new URL(r.url()).pathname === "/login"),
    page.getByRole("button", { name: "Login", exact: true }).click(),
  ]);
}

test("strangers' wrong passwords stop new browsers, never the owner's own", async ({
  page,
  browser,
  request,
  javaScript,
}) => {
  // eleven sign-in posts in two browsers
  test.slow();
  const username = await copyUser(request, "demo.client", { ownEmail: true });

  // The owner signs in once in her own browser, and logs out.
  await page.goto(`${base}/login`);
  await tryPassword(page, username, DEMO_PASSWORD);
  await expect(page).toHaveURL(/\/clients/);
  await signOut(page);
  await expect(page).toHaveURL(/\/login/);

  // A stranger, in a browser that has never signed in as her, guesses four times...
  const strangers = await browser.newContext({ locale: "en-GB", timezoneId: "Europe/London" });
  try {
    const stranger = await strangers.newPage();
    if (javaScript === "off") await stranger.route(SCRIPTS, (route) => route.abort());
    await stranger.goto(`${base}/login`);
    for (let attempt = 1; attempt <= 4; attempt++) {
      await tryPassword(stranger, username, `wrong-${attempt}`);
      await expect(stranger.getByLabel("Password", { exact: true })).toHaveValue("");
      await expect(stranger.getByRole("alert").filter({ hasText: INCORRECT })).toBeVisible();
    }
    // ...and is then told what is limited, even with the right password.
    await tryPassword(stranger, username, DEMO_PASSWORD);
    await expect(stranger.getByRole("alert").filter({ hasText: STRANGERS_LIMITED })).toBeVisible();
    await expect(stranger.getByLabel("Username")).toHaveValue(username);
    await expect(stranger).toHaveURL(/\/login$/);
    await expectAccessible(stranger);
  } finally {
    await strangers.close();
  }

  // The owner's browser has signed in as her before: it is not stopped.
  await page.goto(`${base}/login`);
  await tryPassword(page, username, DEMO_PASSWORD);
  await expect(page).toHaveURL(/\/clients/);
  await expect(page.getByText("My Account")).toBeVisible();
});
