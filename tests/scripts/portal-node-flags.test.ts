import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { PORTAL_NODE_FLAGS, PORTAL_PROCESS_ENV } from "../../scripts/portal-node-flags.mjs";

describe("the portal's heap limits (docs/decisions/128)", () => {
  it("are the same in npm run start:portal as in the scripts that start the portal", () => {
    const scripts = JSON.parse(readFileSync("package.json", "utf8")).scripts as Record<string, string>;
    const env = Object.entries(PORTAL_PROCESS_ENV).map(([name, value]) => `${name}=${value} `);
    expect(scripts["start:portal"]).toBe(
      `${env.join("")}node ${PORTAL_NODE_FLAGS.join(" ")} scripts/portal-server.mjs`,
    );
  });

  it("bound glibc's arenas (docs/decisions/176)", () => {
    expect(PORTAL_PROCESS_ENV).toEqual({ MALLOC_ARENA_MAX: "2" });
  });

  it("bound the old generation and the young one", () => {
    expect(PORTAL_NODE_FLAGS).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^--max-old-space-size=\d+$/),
        expect.stringMatching(/^--max-semi-space-size=\d+$/),
      ]),
    );
  });
});
