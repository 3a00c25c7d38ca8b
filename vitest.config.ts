import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: {
    alias: { "~": fileURLToPath(new URL("./app", import.meta.url)) },
  },
  test: {
    include: ["app/**/*.test.ts", "app/**/*.test.tsx", "tests/**/*.test.ts"],
    environment: "node",
    setupFiles: ["./tests/setup/fail-on-console-error.ts"],
    pool: "forks",
    testTimeout: 20_000,
    env: { LOG_LEVEL: "silent" },
    // `npm run coverage` (docs/decisions/154): the portal's and the platform's sources, tested or
    // not; the lines' floor fails the run when coverage falls below today's.
    coverage: {
      provider: "v8",
      include: ["app/**/*.{ts,tsx}", "server/**/*.ts"],
      exclude: ["**/*.test.{ts,tsx}", "**/*.fixtures.ts", "**/*.d.ts", "tests/**"],
      reporter: ["text-summary", "html"],
      reportsDirectory: "coverage",
      thresholds: { lines: 78 },
    },
  },
});
