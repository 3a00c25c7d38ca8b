// `npm run load`: 50 signed-in users for 60 seconds over the home, messages, analysis and client
// list pages, with autocannon (a maintained load generator), against a fresh platform and the built
// portal on this machine (run `npm run build` first). Prints requests, errors, p50 and p99 latency,
// and the resident memory of the portal and the platform: warmed up, at the end of the load, and
// after a minute's rest. Budget: no errors, and memory back within 10 % of the warmed-up figure.
//
//   LOAD_USERS (50), LOAD_SECONDS (60), LOAD_REST_SECONDS (60)
import { readFileSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import autocannon from "autocannon";
import { Browser } from "./browser-client.mjs";
import { JOURNEY_RATE_LIMITS, startServers } from "./servers.mjs";

const USERS = Number(process.env.LOAD_USERS ?? 50);
const SECONDS = Number(process.env.LOAD_SECONDS ?? 60);
const REST_SECONDS = Number(process.env.LOAD_REST_SECONDS ?? 60);
const WARM_UP_SECONDS = 10;
const MEMORY_BUDGET = 0.1;
/** One in five users is an adviser (the client list); the others are clients. */
const ADVISER_EVERY = 5;

const CLIENT_PAGES = ["/clients/home", "/clients/documents-and-messages", "/clients/analysis"];
const ADVISER_PAGES = ["/advisers/clients?name=&dob=&postcode=", "/advisers/clients?name=&dob=&postcode=&pages=2"];

/** Resident memory of a process in MiB (Linux). */
function rssMiB(pid) {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kib = Number(/VmRSS:\s+(\d+)\s+kB/.exec(status)?.[1] ?? NaN);
  return kib / 1024;
}

function memory(pids) {
  return { portal: rssMiB(pids.portal), platform: rssMiB(pids.platform) };
}

/** Every connection sends a user's session cookie, taking the users in turn. */
function requests(sessions) {
  let next = 0;
  const pick = (context) => {
    if (context.user === undefined) context.user = next++ % sessions.length;
    return sessions[context.user];
  };
  const slot = (i) => ({
    method: "GET",
    setupRequest: (request, context) => {
      const user = pick(context);
      const pages = user.adviser ? ADVISER_PAGES : CLIENT_PAGES;
      return {
        ...request,
        path: pages[i % pages.length],
        headers: { ...request.headers, cookie: user.cookie, accept: "text/html" },
      };
    },
  });
  return [slot(0), slot(1), slot(2)];
}

function run(url, sessions, seconds) {
  return new Promise((resolve, reject) => {
    autocannon(
      { url, connections: sessions.length, duration: seconds, requests: requests(sessions), timeout: 30 },
      (error, result) => (error ? reject(error) : resolve(result)),
    );
  });
}

const servers = await startServers({
  // One address signs in 50 users at once (the journeys' limits); the platform may take its time under load.
  portalEnv: { ...JOURNEY_RATE_LIMITS, PLANNING_TIMEOUT_MS: "15000" },
});
let failed = false;
try {
  const sessions = [];
  for (let i = 0; i < USERS; i++) {
    const adviser = i % ADVISER_EVERY === ADVISER_EVERY - 1;
    const browser = new Browser(servers.portalUrl);
    await browser.signIn(adviser ? "demo.adviser" : "demo.client", adviser ? "adviser" : "client");
    sessions.push({ adviser, cookie: browser.cookieHeader() });
  }

  await run(servers.portalUrl, sessions, WARM_UP_SECONDS);
  await sleep(5_000);
  const warmedUp = memory(servers.pids);
  const result = await run(servers.portalUrl, sessions, SECONDS);
  const loaded = memory(servers.pids);
  await sleep(REST_SECONDS * 1000);
  const rested = memory(servers.pids);

  const non2xx = result.non2xx ?? 0;
  const errors = (result.errors ?? 0) + (result.timeouts ?? 0) + non2xx;
  const within = (name) => rested[name] <= warmedUp[name] * (1 + MEMORY_BUDGET);
  console.log(
    `\n${USERS} signed-in users (${USERS / ADVISER_EVERY} advisers), ${SECONDS} s, autocannon ${sessions.length} connections\n`,
  );
  console.log("| requests | per second | errors | non-2xx | p50 ms | p99 ms |");
  console.log("|---:|---:|---:|---:|---:|---:|");
  console.log(
    `| ${result.requests.total} | ${result.requests.average.toFixed(0)} | ${(result.errors ?? 0) + (result.timeouts ?? 0)} | ${non2xx} | ${result.latency.p50} | ${result.latency.p99} |`,
  );
  console.log(`\n| resident memory MiB | warmed up | after the load | after ${REST_SECONDS} s rest | within 10 % |`);
  console.log("|---|---:|---:|---:|---|");
  for (const name of ["portal", "platform"]) {
    console.log(
      `| ${name} | ${warmedUp[name].toFixed(0)} | ${loaded[name].toFixed(0)} | ${rested[name].toFixed(0)} | ${within(name) ? "yes" : "NO"} |`,
    );
  }
  failed = errors > 0 || !within("portal") || !within("platform");
  console.log(failed ? "\nload: over budget" : "\nload: within budget (no errors, memory back within 10 %)");
} finally {
  servers.stop();
}
process.exit(failed ? 1 : 0);
