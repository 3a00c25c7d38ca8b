// The active health check that open-source nginx lacks (docs/decisions/102-load-balancer.md): asks
// every portal instance for /readyz every few seconds and, when the set of ready instances
// changes, rewrites the upstream file (instances not ready are `down`) and reloads nginx. When no
// instance is ready, none is marked down: the portal then answers with its maintenance page.
//
//   node deploy/upstream-check.mjs --runtime-dir DIR [--interval 2] [--timeout 3] [--fall 2] [--rise 1]
//
// The instances are those of DIR/upstreams.conf, written by deploy/nginx.mjs: render it again to
// add or remove one, and the next poll reloads nginx. Run it as the user that runs nginx. Plain Node, no package; one JSON line per event.
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { parseArgs, promisify } from "node:util";
import { nginxBinary, nginxPaths, parseUpstreams, renderUpstreams, writeUpstreams } from "./nginx.mjs";

const run = promisify(execFile);

function log(level, message, fields = {}) {
  const line = JSON.stringify({ time: new Date().toISOString(), level, message, ...fields });
  (level === "error" ? process.stderr : process.stdout).write(`${line}\n`);
}

const { values } = parseArgs({
  options: {
    "runtime-dir": { type: "string" },
    interval: { type: "string", default: "2" },
    timeout: { type: "string", default: "3" },
    fall: { type: "string", default: "2" },
    rise: { type: "string", default: "1" },
    nginx: { type: "string" },
  },
});
const seconds = (name) => {
  const value = Number(values[name]);
  if (!(value > 0 && value <= 600)) {
    log("error", `--${name} is a number of seconds`, { value: values[name] });
    process.exit(2);
  }
  return value * 1000;
};
const count = (name) => {
  const value = Number(values[name]);
  if (!Number.isInteger(value) || value < 1 || value > 100) {
    log("error", `--${name} is a number of polls`, { value: values[name] });
    process.exit(2);
  }
  return value;
};
if (!values["runtime-dir"]) {
  console.error(
    "usage: node deploy/upstream-check.mjs --runtime-dir DIR [--interval 2] [--timeout 3] [--fall 2] [--rise 1] [--nginx /usr/sbin/nginx]",
  );
  process.exit(2);
}
const paths = nginxPaths(values["runtime-dir"]);
const intervalMs = seconds("interval");
// /readyz itself gives the platform 2 s (app/routes/readyz): a little more than that.
const timeoutMs = seconds("timeout");
// Consecutive polls needed to change a verdict: one failed probe is not yet an outage.
const fall = count("fall");
const rise = count("rise");
const nginx = values.nginx ?? nginxBinary();

/** One probe: ready only on 200. */
async function probe(address) {
  try {
    const response = await fetch(`http://${address}/readyz`, {
      signal: AbortSignal.timeout(timeoutMs),
      headers: { "User-Agent": "client-online-upstream-check" },
    });
    await response.arrayBuffer();
    return { ready: response.status === 200, reason: `status ${response.status}` };
  } catch (error) {
    return { ready: false, reason: error?.cause?.code ?? error?.name ?? String(error) };
  }
}

/** address → { ready, streak }: the verdict and how many polls in a row disagreed with it. */
const verdicts = new Map();
/** The upstream file as nginx last loaded it: at start, as found (nginx was started with it). */
let applied = null;
let reloadPending = false;
let stopping = false;
for (const signal of ["SIGTERM", "SIGINT"]) {
  process.once(signal, () => {
    stopping = true;
    log("info", "upstream check stopped", { signal });
    process.exit(0);
  });
}

async function reload() {
  try {
    await run(nginx, ["-p", paths.dir, "-c", paths.config, "-s", "reload"], { timeout: 10_000 });
    return true;
  } catch (error) {
    log("error", "nginx reload failed", { error: String(error.stderr || error.message).trim() });
    return false;
  }
}

async function poll() {
  let current;
  try {
    current = readFileSync(paths.upstreams, "utf8");
  } catch (error) {
    log("error", "upstream file unreadable", { file: paths.upstreams, error: String(error) });
    return;
  }
  applied ??= current;
  // Rendered again (an instance added or removed): nginx has to read it too.
  if (current !== applied) reloadPending = true;
  const { upstreams, down } = parseUpstreams(current);
  if (upstreams.length === 0) {
    log("error", "no instance in the upstream file", { file: paths.upstreams });
    return;
  }
  for (const address of verdicts.keys()) if (!upstreams.includes(address)) verdicts.delete(address);
  for (const address of upstreams) {
    // A new instance starts as the file says; one the file marks down must prove itself ready.
    if (!verdicts.has(address)) verdicts.set(address, { ready: !down.includes(address), streak: 0 });
  }

  const results = await Promise.all(upstreams.map(probe));
  upstreams.forEach((address, i) => {
    const verdict = verdicts.get(address);
    const { ready, reason } = results[i];
    if (ready === verdict.ready) {
      verdict.streak = 0;
      return;
    }
    verdict.streak += 1;
    if (verdict.streak < (ready ? rise : fall)) return;
    verdict.ready = ready;
    verdict.streak = 0;
    log(ready ? "info" : "error", ready ? "instance ready" : "instance not ready", { instance: address, reason });
  });

  const notReady = upstreams.filter((address) => !verdicts.get(address).ready);
  const wanted = renderUpstreams(upstreams, notReady);
  if (wanted !== current) {
    // rendered again while the probes ran: the next poll reads the new file
    if (readFileSync(paths.upstreams, "utf8") !== current) return;
    writeUpstreams(paths.dir, wanted);
    reloadPending = true;
    const marked = parseUpstreams(wanted).down;
    log("info", "upstreams changed", {
      up: upstreams.filter((address) => !marked.includes(address)),
      down: marked,
      ...(notReady.length === upstreams.length ? { note: "no instance ready: all kept, the portal answers" } : {}),
    });
  }
  if (reloadPending && (await reload())) {
    reloadPending = false;
    applied = wanted;
    log("info", "nginx reloaded");
  }
}

log("info", "upstream check started", { upstreams: paths.upstreams, intervalMs, timeoutMs, fall, rise });
while (!stopping) {
  const started = performance.now();
  await poll();
  await sleep(Math.max(0, intervalMs - (performance.now() - started)));
}
