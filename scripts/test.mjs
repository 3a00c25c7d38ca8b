// `npm test`: every check the project makes, in stages that keep both cores of the reference
// machine busy (docs/decisions/151). The steps are package.json's own scripts; a stage starts
// when the one before it has passed, and its steps run side by side, at most `CORES` at a time,
// each one's output printed whole when it ends (a step that runs alone prints as it goes).
// Last, how long each step took.
//
//   npm test                      every stage
//   TEST_CORES=1 npm test         one step at a time
import { spawn } from "node:child_process";
import { availableParallelism } from "node:os";

const CORES = Number(process.env.TEST_CORES ?? Math.max(availableParallelism(), 2));

/** The stages, in order; a stage's steps do not depend on each other. */
const STAGES = [
  // static checks and the production build: single-threaded tools, two at a time; the bill of
  // materials against the lock file (docs/decisions/169)
  ["typecheck", "lint", "build", "format:check", "knip", "sbom:check"],
  // unit and integration tests (vitest's own workers) with the coverage floor, and the first
  // load's size (needs the build)
  ["coverage", "size"],
  // the journeys against the build, then two instances behind nginx
  ["test:e2e"],
  ["test:scale"],
];

/** @typedef {{ step: string; code: number; seconds: number }} Result */

/**
 * Runs `npm run <step>`; `alone` lets it print as it goes, else its output is kept and printed whole.
 * @param {string} step
 * @param {boolean} alone
 * @returns {Promise<Result>}
 */
function run(step, alone) {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn("npm", ["run", "--silent", step], {
      stdio: alone ? "inherit" : ["ignore", "pipe", "pipe"],
      env: process.env,
    });
    /** @type {Buffer[]} */
    const output = [];
    child.stdout?.on("data", (chunk) => output.push(chunk));
    child.stderr?.on("data", (chunk) => output.push(chunk));
    child.on("close", (code, signal) => {
      const seconds = (performance.now() - started) / 1000;
      const result = { step, code: code ?? (signal ? 1 : 0), seconds };
      if (!alone) {
        process.stdout.write(`\n── ${step} (${seconds.toFixed(0)} s) ──\n`);
        process.stdout.write(Buffer.concat(output));
      }
      if (result.code !== 0) process.stdout.write(`\n${step} failed (exit ${result.code})\n`);
      resolve(result);
    });
  });
}

/**
 * A stage's steps, at most CORES at a time, in the order given.
 * @param {string[]} steps
 * @returns {Promise<Result[]>}
 */
async function runStage(steps) {
  const queue = [...steps];
  /** @type {Result[]} */
  const results = [];
  const alone = steps.length === 1 || CORES === 1;
  const worker = async () => {
    for (let step = queue.shift(); step; step = queue.shift()) results.push(await run(step, alone));
  };
  await Promise.all(Array.from({ length: Math.min(CORES, steps.length) }, worker));
  return results;
}

const started = performance.now();
/** @type {Result[]} */
const results = [];
let failed = false;
for (const stage of STAGES) {
  process.stdout.write(`\n══ ${stage.join(", ")} ══\n`);
  const stageResults = await runStage(stage);
  results.push(...stageResults);
  if (stageResults.some((r) => r.code !== 0)) {
    failed = true;
    break;
  }
}
const total = (performance.now() - started) / 1000;
process.stdout.write("\nstep times (s, wall clock; steps of a stage overlap):\n");
for (const r of results)
  process.stdout.write(`  ${r.step.padEnd(14)} ${r.seconds.toFixed(0).padStart(5)}${r.code ? "  FAILED" : ""}\n`);
process.stdout.write(`  ${"total".padEnd(14)} ${total.toFixed(0).padStart(5)}\n`);
process.exit(failed ? 1 : 0);
