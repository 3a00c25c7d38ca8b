// `npm run audit`: the production packages of package-lock.json against the npm registry's
// security advisories (npm's own `npm audit`), and the direct production packages that have a
// newer release (`npm outdated`). ASVS 4.0.3 V1.14.3 and V14.2.1, docs/decisions/191.
//
// - Fails on an advisory of moderate severity or above in a production package (`--omit=dev`:
//   what `npm ci --omit dev` installs and the servers run) unless audit-accepted.json accepts it
//   by its GHSA id, with a reason, until a date; an acceptance past its date no longer accepts.
// - Prints low advisories, acceptances that match nothing (to be removed) and outdated packages
//   as warnings, without failing.
// - When the advisory service cannot be asked (no network, the registry down or refusing the
//   request), says loudly that the advisories were NOT checked and passes, so that an outage of
//   the registry does not stop every change; with AUDIT_REQUIRED=true (a release) it fails.
//
// .ci/run runs it after `npm test`; `npm test` does not (its result depends on the commit alone).
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";

const root = resolve(import.meta.dirname, "..");

/** npm's severities, least first; FAIL_AT and above fail the check. */
export const SEVERITIES = ["info", "low", "moderate", "high", "critical"];
export const FAIL_AT = "moderate";
/** How long npm may take to answer before the advisories count as not checked. */
const NPM_TIMEOUT_MS = 120_000;

/**
 * @typedef {{ id: string; url: string; package: string; severity: string; title: string; range: string }} Advisory
 * @typedef {{ checked: true; advisories: Advisory[] } | { checked: false; why: string }} Report
 * @typedef {{ id: string; package?: string; reason: string; until: string }} Acceptance
 */

/** The GHSA id of an advisory's address, else the address itself. */
function advisoryId(url) {
  return /\/(GHSA(?:-[23456789cfghjmpqrvwx]{4}){3})$/i.exec(url)?.[1]?.toUpperCase() ?? url;
}

/**
 * The advisories of `npm audit --json`'s output, or why there are none to read: npm writes an
 * `error` (or a bare `message`) when the registry could not be asked.
 * @param {string} text
 * @returns {Report}
 */
export function readAuditReport(text) {
  let report;
  try {
    report = JSON.parse(text);
  } catch {
    return { checked: false, why: text.trim().split("\n")[0] || "npm audit wrote nothing" };
  }
  if (!report || typeof report !== "object" || typeof report.vulnerabilities !== "object" || !report.vulnerabilities) {
    const why = report?.error?.summary || report?.error?.code || report?.message || "no audit report";
    return { checked: false, why: String(why) };
  }
  /** @type {Map<string, Advisory>} */
  const advisories = new Map();
  for (const vulnerability of Object.values(report.vulnerabilities)) {
    for (const via of vulnerability.via ?? []) {
      // a string names another vulnerable package, listed under its own name
      if (typeof via !== "object" || !via.url) continue;
      const id = advisoryId(via.url);
      if (advisories.has(`${id} ${via.name}`)) continue;
      advisories.set(`${id} ${via.name}`, {
        id,
        url: via.url,
        package: via.name,
        severity: SEVERITIES.includes(via.severity) ? via.severity : "critical",
        title: String(via.title ?? ""),
        range: String(via.range ?? ""),
      });
    }
  }
  return { checked: true, advisories: [...advisories.values()] };
}

/**
 * The acceptances of audit-accepted.json: each names an advisory (GHSA id), says why it does not
 * touch the portal or the platform, and until when (a date, YYYY-MM-DD) that holds.
 * @param {string} text
 * @returns {Acceptance[]}
 */
export function readAcceptances(text) {
  const file = JSON.parse(text);
  if (!Array.isArray(file?.advisories)) throw new Error("audit-accepted.json: `advisories` is a list");
  return file.advisories.map((entry, index) => {
    const where = `audit-accepted.json advisories[${index}]`;
    if (typeof entry?.id !== "string" || !/^GHSA(-[a-z0-9]{4}){3}$/i.test(entry.id)) {
      throw new Error(`${where}: \`id\` is a GHSA id`);
    }
    if (typeof entry.reason !== "string" || entry.reason.trim().length < 20) {
      throw new Error(`${where}: \`reason\` says why it is accepted`);
    }
    if (
      typeof entry.until !== "string" ||
      !/^\d{4}-\d{2}-\d{2}$/.test(entry.until) ||
      Number.isNaN(Date.parse(entry.until))
    ) {
      throw new Error(`${where}: \`until\` is a date, YYYY-MM-DD`);
    }
    return { id: entry.id.toUpperCase(), package: entry.package, reason: entry.reason, until: entry.until };
  });
}

/**
 * What the advisories mean for the build, on `today` (YYYY-MM-DD): those that fail it (FAIL_AT or
 * above, not accepted or accepted past their date), those accepted, the low ones (warnings), and
 * acceptances that match no advisory any more.
 * @param {Advisory[]} advisories
 * @param {Acceptance[]} acceptances
 * @param {string} today
 */
export function judge(advisories, acceptances, today) {
  const level = SEVERITIES.indexOf(FAIL_AT);
  const acceptanceOf = (advisory) =>
    acceptances.find((a) => a.id === advisory.id && (a.package === undefined || a.package === advisory.package));
  /** @type {Advisory[]} */ const failing = [];
  /** @type {(Advisory & { reason: string; until: string })[]} */ const accepted = [];
  /** @type {(Advisory & { until: string })[]} */ const expired = [];
  /** @type {Advisory[]} */ const low = [];
  for (const advisory of advisories) {
    if (SEVERITIES.indexOf(advisory.severity) < level) {
      low.push(advisory);
      continue;
    }
    const acceptance = acceptanceOf(advisory);
    if (acceptance && acceptance.until >= today) accepted.push({ ...advisory, ...acceptance, id: advisory.id });
    else {
      failing.push(advisory);
      if (acceptance) expired.push({ ...advisory, until: acceptance.until });
    }
  }
  const unused = acceptances.filter((a) => !advisories.some((advisory) => acceptanceOf(advisory) === a));
  return { failing, accepted, expired, low, unused };
}

/**
 * Runs npm with `args` in the project; its standard output, exit code, and a failure to run.
 * @param {string[]} args
 * @returns {Promise<{ stdout: string; stderr: string; code: number | null; error?: string }>}
 */
function npm(args) {
  return new Promise((done) => {
    const child = spawn("npm", args, { cwd: root, stdio: ["ignore", "pipe", "pipe"], timeout: NPM_TIMEOUT_MS });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk) => (stdout += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk) => (stderr += chunk));
    child.on("error", (error) => done({ stdout, stderr, code: null, error: String(error) }));
    child.on("close", (code, signal) =>
      done({
        stdout,
        stderr,
        code,
        ...(signal ? { error: `npm ${args[0]} stopped after ${NPM_TIMEOUT_MS / 1000} s` } : {}),
      }),
    );
  });
}

/**
 * The direct production packages (`production`: package.json's dependencies; npm outdated lists
 * development ones too, whatever `--omit`) with a newer release: name, installed, wanted, latest.
 * @param {string} text
 * @param {Set<string>} production
 */
export function readOutdated(text, production) {
  let report;
  try {
    report = JSON.parse(text || "{}");
  } catch {
    return null;
  }
  if (!report || typeof report !== "object" || "error" in report) return null;
  return Object.entries(report)
    .filter(([name]) => production.has(name))
    .map(([name, entry]) => ({
      name,
      current: String(entry?.current ?? "-"),
      wanted: String(entry?.wanted ?? "-"),
      latest: String(entry?.latest ?? "-"),
    }));
}

const line = (advisory) =>
  `  ${advisory.severity.padEnd(8)} ${advisory.package} ${advisory.range}: ${advisory.title} (${advisory.url})`;

async function main() {
  const required = process.env.AUDIT_REQUIRED === "true";
  const today = new Date().toISOString().slice(0, 10);
  const acceptances = readAcceptances(readFileSync(resolve(root, "audit-accepted.json"), "utf8"));

  const audit = await npm(["audit", "--omit=dev", "--package-lock-only", "--json"]);
  const report = audit.error ? { checked: false, why: audit.error } : readAuditReport(audit.stdout || audit.stderr);
  let failed = false;
  if (!report.checked) {
    console.log(
      `WARNING: the advisories were NOT checked: the npm registry's audit service could not be asked (${report.why}).`,
    );
    if (required) {
      console.log("AUDIT_REQUIRED=true: failing.");
      failed = true;
    }
  } else {
    const { failing, accepted, expired, low, unused } = judge(report.advisories, acceptances, today);
    console.log(`advisories checked: ${report.advisories.length} in the production packages of package-lock.json`);
    if (failing.length)
      console.log(`${failing.length} at ${FAIL_AT} or above, not accepted:\n${failing.map(line).join("\n")}`);
    for (const advisory of expired) console.log(`  (${advisory.id} was accepted until ${advisory.until})`);
    if (accepted.length)
      console.log(
        `accepted (audit-accepted.json):\n${accepted.map((a) => `${line(a)}\n    until ${a.until}: ${a.reason}`).join("\n")}`,
      );
    if (low.length) console.log(`WARNING: low advisories:\n${low.map(line).join("\n")}`);
    for (const acceptance of unused)
      console.log(`WARNING: ${acceptance.id} is accepted in audit-accepted.json but no package has it: remove it`);
    failed = failing.length > 0;
  }

  const outdated = await npm(["outdated", "--omit=dev", "--json"]);
  const production = new Set(
    Object.keys(JSON.parse(readFileSync(resolve(root, "package.json"), "utf8")).dependencies ?? {}),
  );
  const packages = outdated.error ? null : readOutdated(outdated.stdout, production);
  if (packages === null) console.log("WARNING: outdated packages NOT checked: the npm registry could not be asked.");
  else if (packages.length === 0) console.log("outdated production packages: none");
  else {
    console.log(`WARNING: ${packages.length} production package(s) have a newer release:`);
    for (const p of packages) console.log(`  ${p.name} ${p.current} (wanted ${p.wanted}, latest ${p.latest})`);
  }
  console.log(failed ? "audit failed" : "audit passed");
  process.exit(failed ? 1 : 0);
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) await main();
