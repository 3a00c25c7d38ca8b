// @ts-check
// The portal's and the platform's software bill of materials (ASVS 4.0.3 V14.2.5, docs/decisions/169):
// CycloneDX, made by npm's own `npm sbom` from package-lock.json (no node_modules read), of what is
// installed to run (dependencies, not devDependencies), and kept in the repository as
// sbom.cdx.json. `npm sbom --omit dev` leaves out production packages that a development package
// also reaches (react, zod, @remix-run/node here: npm/cli#7909), and without it npm refuses the
// lock file (a development package asks for `latest`); so npm is given the production part of the
// project: package.json without its devDependencies and the lock file without the packages it
// marks `dev` (what `npm ci --omit dev` installs), in a directory of their own.
//
//   npm run sbom          writes sbom.cdx.json from package-lock.json
//   npm run sbom:check    fails when sbom.cdx.json is not package-lock.json's (npm test runs it)
//
// What changes from one run to the next is left out of the file (the serial number, the time) or
// not compared (the npm that made it), and the root component is named after package.json, not
// after the checkout's folder, so the same lock file gives the same bill on every machine.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const SBOM_FILE = "sbom.cdx.json";

/**
 * `npm sbom`'s CycloneDX document of the production part of the project in `cwd` (above), from its
 * lock file alone.
 * @param {string} cwd
 * @returns {Promise<Record<string, any>>}
 */
export async function npmSbom(cwd) {
  const staged = mkdtempSync(join(tmpdir(), "sbom-"));
  try {
    const { devDependencies: _dev, ...manifest } = JSON.parse(readFileSync(resolve(cwd, "package.json"), "utf8"));
    const lock = JSON.parse(readFileSync(resolve(cwd, "package-lock.json"), "utf8"));
    const packages = Object.fromEntries(
      Object.entries(lock.packages ?? {})
        .filter(([, entry]) => !entry.dev)
        .map(([path, entry]) => {
          if (path !== "") return [path, entry];
          const { devDependencies: _rootDev, ...root } = entry;
          return [path, root];
        }),
    );
    writeFileSync(join(staged, "package.json"), JSON.stringify(manifest));
    writeFileSync(join(staged, "package-lock.json"), JSON.stringify({ ...lock, packages }));
    return await runNpmSbom(staged);
  } finally {
    rmSync(staged, { recursive: true, force: true });
  }
}

/**
 * @param {string} cwd
 * @returns {Promise<Record<string, any>>}
 */
function runNpmSbom(cwd) {
  // npm's own CLI when run by `npm run`, else the npm on the PATH
  const npm = process.env.npm_execpath;
  const [command, args] = npm
    ? [process.execPath, [npm]]
    : [process.platform === "win32" ? "npm.cmd" : "npm", /** @type {string[]} */ ([])];
  return new Promise((done, fail) => {
    const child = spawn(command, [...args, "sbom", "--sbom-format", "cyclonedx", "--package-lock-only", "--offline"], {
      cwd,
      stdio: ["ignore", "pipe", "pipe"],
    });
    /** @type {Buffer[]} */
    const out = [];
    /** @type {Buffer[]} */
    const err = [];
    child.stdout.on("data", (chunk) => out.push(chunk));
    child.stderr.on("data", (chunk) => err.push(chunk));
    child.on("error", fail);
    child.on("close", (code) => {
      if (code !== 0) return fail(new Error(`npm sbom failed (exit ${code}): ${Buffer.concat(err).toString().trim()}`));
      try {
        done(JSON.parse(Buffer.concat(out).toString("utf8")));
      } catch (error) {
        fail(error);
      }
    });
  });
}

/**
 * The bill as kept: without the run's serial number and time, the root named as package.json names it.
 * @param {Record<string, any>} bom
 * @param {string} name
 * @returns {Record<string, any>}
 */
export function keptSbom(bom, name) {
  const { serialNumber: _serial, ...rest } = bom;
  const { timestamp: _time, ...metadata } = rest.metadata ?? {};
  if (metadata.component) metadata.component = { ...metadata.component, name };
  return { ...rest, metadata };
}

/**
 * What is compared: the kept bill without the npm that made it.
 * @param {Record<string, any>} bom
 * @param {string} name
 */
function compared(bom, name) {
  const kept = keptSbom(bom, name);
  const { tools: _tools, ...metadata } = kept.metadata;
  return JSON.stringify({ ...kept, metadata });
}

/**
 * @param {Record<string, any>} bom
 * @returns {Map<string, string>} each component's name and version
 */
function componentsOf(bom) {
  return new Map(
    (bom.components ?? []).map((/** @type {any} */ c) => [`${c.group ? `${c.group}/` : ""}${c.name}`, c.version]),
  );
}

/**
 * Why the kept bill is not the lock file's (components added, removed or at another version, or
 * anything else), or null when it is.
 * @param {Record<string, any>} kept
 * @param {Record<string, any>} fresh
 * @param {string} name
 * @returns {string | null}
 */
export function sbomDifference(kept, fresh, name) {
  if (compared(kept, name) === compared(fresh, name)) return null;
  const before = componentsOf(kept);
  const now = componentsOf(fresh);
  const lines = [];
  for (const [component, version] of now) {
    if (!before.has(component)) lines.push(`  + ${component}@${version}`);
    else if (before.get(component) !== version) lines.push(`  ~ ${component} ${before.get(component)} → ${version}`);
  }
  for (const [component, version] of before) if (!now.has(component)) lines.push(`  - ${component}@${version}`);
  return lines.length ? lines.join("\n") : "  (the components are the same; their details or the document's differ)";
}

/**
 * Writes the bill of `cwd`, or (`check`) says whether the kept one is its lock file's.
 * @param {{ cwd?: string; check?: boolean }} options
 * @returns {Promise<number>} the exit code
 */
export async function sbom({ cwd = process.cwd(), check = false } = {}) {
  const name = JSON.parse(readFileSync(resolve(cwd, "package.json"), "utf8")).name;
  const fresh = keptSbom(await npmSbom(cwd), name);
  const file = resolve(cwd, SBOM_FILE);
  if (!check) {
    writeFileSync(file, `${JSON.stringify(fresh, null, 2)}\n`);
    process.stdout.write(`${SBOM_FILE}: ${fresh.components?.length ?? 0} components\n`);
    return 0;
  }
  let kept;
  try {
    kept = JSON.parse(readFileSync(file, "utf8"));
  } catch {
    process.stderr.write(`${SBOM_FILE} is missing or not JSON: run \`npm run sbom\` and commit it\n`);
    return 1;
  }
  const difference = sbomDifference(kept, fresh, name);
  if (!difference) {
    process.stdout.write(`${SBOM_FILE} is package-lock.json's (${fresh.components?.length ?? 0} components)\n`);
    return 0;
  }
  process.stderr.write(`${SBOM_FILE} is not package-lock.json's: run \`npm run sbom\` and commit it.\n${difference}\n`);
  return 1;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = await sbom({ check: process.argv.includes("--check") });
}
