import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { PORTAL_NODE_FLAGS } from "../../scripts/portal-node-flags.mjs";

describe("the portal's heap limits (docs/decisions/128)", () => {
  it("are the same in npm run start:portal as in the scripts that start the portal", () => {
    const scripts = JSON.parse(readFileSync("package.json", "utf8")).scripts as Record<string, string>;
    expect(scripts["start:portal"]).toBe(`node ${PORTAL_NODE_FLAGS.join(" ")} scripts/portal-server.mjs`);
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
