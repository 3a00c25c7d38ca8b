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
  // A journey that fails once fails the run: no retries, in CI as anywhere (docs/decisions/151).
  retries: 0,
  timeout: 45_000,
  expect: { timeout: 10_000 },
  reporter: [["list"]],
  use: {
    baseURL: process.env.E2E_BASE_URL ?? "http://localhost:3000",
    locale: "en-GB",
    timezoneId: "Europe/London",
    // A trace is recorded for every journey and kept for the failed ones: on a developer's machine.
    // CI keeps nothing but its log (the journey's story, e2e/fixtures.ts), and the recording cost a
    // tenth of the journeys' CPU (docs/decisions/151).
    trace: process.env.CI ? "off" : "retain-on-failure",
    launchOptions: {
      // Debian's headless shell of Chromium (package chromium-headless-shell): the same engine
      // without the desktop browser's GPU and window layers, at about half the CPU per journey
      // (docs/decisions/151); another binary with CHROMIUM_PATH.
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium-headless-shell",
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
    // Journeys tagged @js-only or @no-js-only prove what only one of the two can show. A journey
    // tagged @once reads answers that are the same with and without JavaScript (a status, a
    // redirect, a page opened by its address, nothing pressed): one run, with JavaScript, proves
    // it (docs/decisions/151).
    { name: "js", use: { javaScript: "on" }, grepInvert: /@no-js-only/ },
    // Without JavaScript the device asks for the dark theme: every page a journey checks with axe
    // is checked in the light theme with JavaScript and in the dark one without (docs/decisions/212).
    { name: "no-js", use: { javaScript: "off", colorScheme: "dark" }, grepInvert: /@js-only|@once/ },
  ],
});
