import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

/**
 * Test files that need a module graph of their own: those that replace a module (vi.mock), and
 * those that read a process's metrics registry from its start (what another file counted would be
 * in a shared one), and those that set the environment the portal's modules read when imported.
 */
const OWN_GRAPH = [
  "app/components/honeypot-fields.test.tsx",
  "app/components/charts/chart-markup-cache.server.test.ts",
  "app/runtime/metrics.server.test.ts",
  "tests/deploy/alert-rules.test.ts",
  "tests/portal/metrics.test.ts",
  "tests/portal/secure-cookies.test.ts",
  "tests/server/metrics.test.ts",
];

export default defineConfig({
  resolve: {
    alias: { "~": fileURLToPath(new URL("./app", import.meta.url)) },
  },
  test: {
    environment: "node",
    setupFiles: ["./tests/setup/platform-stand-in.ts", "./tests/setup/fail-on-console-error.ts"],
    pool: "forks",
    // Isolation is the pool's (vitest 3 starts one pool per run, not per project; a project's own
    // `isolate` is not read): the forks share one module graph per worker, the threads give each
    // file a graph of its own (docs/decisions/151).
    poolOptions: { forks: { isolate: false }, threads: { isolate: true } },
    // Both cores of the reference machine (vitest's default leaves one idle; docs/decisions/151).
    maxWorkers: 2,
    minWorkers: 1,
    testTimeout: 20_000,
    // a platform and portal started in beforeAll wait for a core on a busy machine: the hook waits
    // for them rather than failing at vitest's 10 s
    hookTimeout: 60_000,
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
    // docs/decisions/151: the files share one module graph per worker (each file importing React,
    // Remix, the app and the platform anew cost half of the run), the portal's integration tests
    // too: their harness sets the environment the portal's modules read (tests/portal); the files
    // of OWN_GRAPH run in the threads pool, one graph each.
    projects: [
      {
        extends: true,
        test: {
          name: "shared",
          include: ["app/**/*.test.ts", "app/**/*.test.tsx", "tests/**/*.test.ts"],
          exclude: OWN_GRAPH,
          pool: "forks",
        },
      },
      {
        extends: true,
        test: {
          name: "isolated",
          include: OWN_GRAPH,
          pool: "threads",
        },
      },
    ],
  },
});
