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
  },
});
