import { spawnSync } from "node:child_process";
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { judge, readAcceptances, readAuditReport, readOutdated } from "../../scripts/audit.mjs";

// ASVS 4.0.3 V1.14.3, V14.2.1 (docs/decisions/191): `npm run audit` fails on an advisory of
// moderate severity or above in a production package unless it is accepted, with a reason, until
// a date; warns of low ones and of outdated packages; and, when the registry cannot be asked,
// says that nothing was checked: a pass, unless AUDIT_REQUIRED=true.

const ADVISORY = (id: string, name: string, severity: string, title = "Something bad") => ({
  source: 1099999,
  name,
  dependency: name,
  title,
  url: `https://github.com/advisories/${id}`,
  severity,
  cwe: ["CWE-400"],
  cvss: { score: 5.3, vectorString: null },
  range: "<1.2.3",
});

/** `npm audit --json`'s report (auditReportVersion 2) with these advisories. */
function auditReport(advisories: ReturnType<typeof ADVISORY>[]) {
  const vulnerabilities: Record<string, unknown> = {};
  for (const advisory of advisories) {
    vulnerabilities[advisory.name] = {
      name: advisory.name,
      severity: advisory.severity,
      isDirect: false,
      via: [advisory],
      effects: ["parent"],
      range: advisory.range,
      nodes: [`node_modules/${advisory.name}`],
      fixAvailable: true,
    };
  }
  // a package vulnerable through another names it by a string
  vulnerabilities.parent = { name: "parent", severity: "high", via: advisories.map((a) => a.name), effects: [] };
  return JSON.stringify({ auditReportVersion: 2, vulnerabilities, metadata: {} });
}

/** What npm printed here when the registry refused the advisory service's request. */
const REFUSED = JSON.stringify({
  message: "405 Method Not Allowed - POST https://registry.npmjs.org/-/npm/v1/security/advisories/bulk",
  method: "POST",
  statusCode: 405,
  body: "",
  error: { summary: "", detail: "" },
});

const MODERATE = "GHSA-2222-3333-4444";
const HIGH = "GHSA-5555-6666-7777";
const LOW = "GHSA-8888-9999-cccc";

describe("the audit report", () => {
  it("lists each advisory once, by its GHSA id, and skips the packages named through another", () => {
    const report = readAuditReport(
      auditReport([ADVISORY(MODERATE, "left-pad", "moderate"), ADVISORY(HIGH, "qs", "high", "Prototype pollution")]),
    );
    expect(report).toEqual({
      checked: true,
      advisories: [
        {
          id: MODERATE,
          url: `https://github.com/advisories/${MODERATE}`,
          package: "left-pad",
          severity: "moderate",
          title: "Something bad",
          range: "<1.2.3",
        },
        expect.objectContaining({ id: HIGH, package: "qs", severity: "high", title: "Prototype pollution" }),
      ],
    });
  });

  it("is not a report when the registry could not be asked, and says why", () => {
    expect(readAuditReport(REFUSED)).toEqual({
      checked: false,
      why: "405 Method Not Allowed - POST https://registry.npmjs.org/-/npm/v1/security/advisories/bulk",
    });
    expect(readAuditReport(JSON.stringify({ error: { code: "ENOTFOUND", summary: "getaddrinfo ENOTFOUND" } }))).toEqual(
      {
        checked: false,
        why: "getaddrinfo ENOTFOUND",
      },
    );
    expect(readAuditReport("npm error network request failed\nmore")).toEqual({
      checked: false,
      why: "npm error network request failed",
    });
    expect(readAuditReport("")).toEqual({ checked: false, why: "npm audit wrote nothing" });
  });
});

describe("the judgement", () => {
  const advisories = [
    { id: MODERATE, url: "u1", package: "left-pad", severity: "moderate", title: "t", range: "*" },
    { id: HIGH, url: "u2", package: "qs", severity: "high", title: "t", range: "*" },
    { id: LOW, url: "u3", package: "ms", severity: "low", title: "t", range: "*" },
  ];
  const reason = "Only reached by the build, never by a request the servers answer.";

  it("fails on moderate and above, warns of low", () => {
    const verdict = judge(advisories, [], "2026-11-29");
    expect(verdict.failing.map((a) => a.id)).toEqual([MODERATE, HIGH]);
    expect(verdict.low.map((a) => a.id)).toEqual([LOW]);
  });

  it("accepts an advisory until its date, that day included, and no longer after it", () => {
    const acceptances = [{ id: HIGH, reason, until: "2026-12-31" }];
    expect(judge(advisories, acceptances, "2026-12-31").failing.map((a) => a.id)).toEqual([MODERATE]);
    expect(judge(advisories, acceptances, "2026-12-31").accepted.map((a) => a.id)).toEqual([HIGH]);
    const late = judge(advisories, acceptances, "2027-01-01");
    expect(late.failing.map((a) => a.id)).toEqual([MODERATE, HIGH]);
    expect(late.expired).toEqual([expect.objectContaining({ id: HIGH, until: "2026-12-31" })]);
  });

  it("accepts an advisory for the package named only, and reports acceptances that match nothing", () => {
    const acceptances = [
      { id: MODERATE, package: "other", reason, until: "2027-01-01" },
      { id: "GHSA-aaaa-bbbb-cccc", reason, until: "2027-01-01" },
    ];
    const verdict = judge(advisories, acceptances, "2026-11-29");
    expect(verdict.failing.map((a) => a.id)).toEqual([MODERATE, HIGH]);
    expect(verdict.unused.map((a) => a.id)).toEqual([MODERATE, "GHSA-aaaa-bbbb-cccc"]);
  });
});

describe("audit-accepted.json", () => {
  const file = (advisories: unknown[]) => JSON.stringify({ advisories });
  const reason = "Only reached by the build, never by a request the servers answer.";

  it("is read from the repository", () => {
    const text = readFileSync(new URL("../../audit-accepted.json", import.meta.url), "utf8");
    expect(() => readAcceptances(text)).not.toThrow();
  });

  it("holds acceptances with a GHSA id, a reason and a date", () => {
    expect(readAcceptances(file([{ id: "ghsa-2222-3333-4444", reason, until: "2027-01-31" }]))).toEqual([
      { id: MODERATE, package: undefined, reason, until: "2027-01-31" },
    ]);
    expect(() => readAcceptances(file([{ id: "CVE-2026-1", reason, until: "2027-01-31" }]))).toThrow(/GHSA id/);
    expect(() => readAcceptances(file([{ id: MODERATE, reason: "fine", until: "2027-01-31" }]))).toThrow(/reason/);
    expect(() => readAcceptances(file([{ id: MODERATE, reason }]))).toThrow(/date/);
    expect(() => readAcceptances(file([{ id: MODERATE, reason, until: "2027-13-45" }]))).toThrow(/date/);
    expect(() => readAcceptances("{}")).toThrow(/list/);
  });
});

describe("outdated packages", () => {
  it("are the production ones npm lists", () => {
    const text = JSON.stringify({
      zod: { current: "3.25.76", wanted: "3.25.76", latest: "4.6.7" },
      typescript: { current: "5.9.3", wanted: "5.9.3", latest: "7.0.2" },
    });
    expect(readOutdated(text, new Set(["zod"]))).toEqual([
      { name: "zod", current: "3.25.76", wanted: "3.25.76", latest: "4.6.7" },
    ]);
    expect(readOutdated("", new Set())).toEqual([]);
    expect(readOutdated(JSON.stringify({ error: { code: "E404" } }), new Set())).toBeNull();
    expect(readOutdated("not json", new Set())).toBeNull();
  });
});

describe("npm run audit", () => {
  const bin = mkdtempSync(join(tmpdir(), "audit-npm-"));
  afterAll(() => rmSync(bin, { recursive: true, force: true }));
  // a stand-in npm: `audit` prints AUDIT_OUTPUT's file and exits 1 as npm does, `outdated` prints {}
  writeFileSync(
    join(bin, "npm"),
    `#!/usr/bin/env node
const { readFileSync } = require("node:fs");
if (process.argv[2] === "audit") { process.stdout.write(readFileSync(process.env.AUDIT_OUTPUT, "utf8")); process.exit(1); }
process.stdout.write("{}");
`,
  );
  chmodSync(join(bin, "npm"), 0o755);

  function run(output: string, env: Record<string, string> = {}) {
    const file = join(bin, `output-${Math.random().toString(36).slice(2)}.json`);
    writeFileSync(file, output);
    const result = spawnSync(process.execPath, ["scripts/audit.mjs"], {
      cwd: new URL("../..", import.meta.url),
      encoding: "utf8",
      env: { ...process.env, PATH: `${bin}:${process.env.PATH}`, AUDIT_OUTPUT: file, AUDIT_REQUIRED: "", ...env },
    });
    return { code: result.status, output: `${result.stdout}${result.stderr}` };
  }

  it("fails on a moderate advisory, naming it", () => {
    const result = run(auditReport([ADVISORY(MODERATE, "left-pad", "moderate")]));
    expect(result.code).toBe(1);
    expect(result.output).toContain(`left-pad <1.2.3: Something bad (https://github.com/advisories/${MODERATE})`);
    expect(result.output).toContain("audit failed");
  });

  it("passes with low advisories only, warning of them", () => {
    const result = run(auditReport([ADVISORY(LOW, "ms", "low")]));
    expect(result.code).toBe(0);
    expect(result.output).toContain("WARNING: low advisories");
    expect(result.output).toContain("outdated production packages: none");
  });

  it("says the advisories were not checked when the registry refuses, and fails only when they must be", () => {
    const refused = run(REFUSED);
    expect(refused.code).toBe(0);
    expect(refused.output).toContain("WARNING: the advisories were NOT checked");
    expect(refused.output).toContain("405 Method Not Allowed");
    const required = run(REFUSED, { AUDIT_REQUIRED: "true" });
    expect(required.code).toBe(1);
    expect(required.output).toContain("AUDIT_REQUIRED=true: failing.");
  });
});
