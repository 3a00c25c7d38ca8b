import { defineConfig } from "@playwright/test";

type JourneyOptions = { javaScript: "on" | "off" };

// Journeys run twice: with JavaScript, and with the portal's scripts blocked (see e2e/fixtures.ts).
// Servers are started by scripts/e2e.mjs, which passes their addresses in the environment.
export default defineConfig<JourneyOptions>({
  testDir: "e2e",
  testMatch: "**/*.test.ts",
  outputDir: process.env.E2E_OUTPUT_DIR ?? "test-results",
  fullyParallel: true,
  workers: 2,
  retries: process.env.CI ? 1 : 0,
  timeout: 45_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [["list"]] : [["list"]],
  use: {
    baseURL: process.env.E2E_BASE_URL ?? "http://localhost:3000",
    locale: "en-GB",
    timezoneId: "Europe/London",
    trace: "retain-on-failure",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
  },
  projects: [
    // Journeys tagged @js-only or @no-js-only prove what only one of the two can show.
    { name: "js", use: { javaScript: "on" }, grepInvert: /@no-js-only/ },
    { name: "no-js", use: { javaScript: "off" }, grepInvert: /@js-only/ },
  ],
});
