import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { keptSbom, npmSbom, SBOM_FILE, sbomDifference } from "../../scripts/sbom.mjs";

// ASVS 4.0.3 V14.2.5 (issue 39, docs/decisions/169): the software bill of materials kept in the
// repository is npm's CycloneDX bill of package-lock.json; `npm run sbom:check` (a step of `npm
// test`) fails when it is not.

const NAME = "client-online";
type Component = { name: string; group?: string; version: string };
type Bom = {
  bomFormat: string;
  serialNumber?: string;
  metadata: { timestamp?: string; component: { name: string } };
  components: Component[];
};
const kept = () => JSON.parse(readFileSync(SBOM_FILE, "utf8")) as Bom;

describe("the kept bill of materials", () => {
  it("is CycloneDX, names the portal and carries no run's serial number or time", () => {
    const bom = kept();
    expect(bom.bomFormat).toBe("CycloneDX");
    expect(bom.metadata.component.name).toBe(NAME);
    expect(bom.serialNumber).toBeUndefined();
    expect(bom.metadata.timestamp).toBeUndefined();
    const names = new Set(bom.components.map((c) => (c.group ? `${c.group}/${c.name}` : c.name)));
    // what runs, the packages a development package reaches too (npm/cli#7909) among them; not what
    // only builds and tests it
    for (const runs of ["@remix-run/node", "react", "zod", "better-sqlite3", "tsx"])
      expect(names.has(runs), runs).toBe(true);
    for (const builds of ["vitest", "@playwright/test", "@remix-run/dev", "eslint"])
      expect(names.has(builds), builds).toBe(false);
  });

  it("is package-lock.json's, and a bill that is not is told apart, by component", async () => {
    const fresh = await npmSbom(process.cwd());
    const bom = kept();
    expect(sbomDifference(bom, fresh, NAME)).toBeNull();
    // another run's serial number, time and npm, and another checkout's folder name: the same bill
    const rerun = {
      ...fresh,
      serialNumber: "urn:uuid:00000000-0000-4000-8000-000000000000",
      metadata: {
        ...fresh.metadata,
        timestamp: "2030-01-01T00:00:00.000Z",
        tools: [{ vendor: "npm", name: "cli", version: "99.0.0" }],
        component: { ...fresh.metadata.component, name: "some-checkout" },
      },
    };
    expect(sbomDifference(keptSbom(rerun, NAME), fresh, NAME)).toBeNull();
    // a component removed from the bill, and one at another version
    const [first, second, ...rest] = bom.components as [Component, Component, ...Component[]];
    const stale = { ...bom, components: [{ ...second, version: "0.0.0-stale" }, ...rest] };
    const difference = sbomDifference(stale, fresh, NAME);
    const full = (c: Component) => (c.group ? `${c.group}/${c.name}` : c.name);
    expect(difference).toContain(`+ ${full(first)}@${first.version}`);
    expect(difference).toContain(`~ ${full(second)} 0.0.0-stale → ${second.version}`);
  });
});
