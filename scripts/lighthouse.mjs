// `npm run lighthouse`: Lighthouse's performance score of every page a client and an adviser see,
// with its default (mobile, simulated throttling) settings, against a fresh platform and the built
// portal on this machine (run `npm run build` first). A benchmark, not a test: the machine's load
// moves the figures, so each page can be run several times and its median kept (docs/decisions/127).
//
//   npm run lighthouse                         every page once, each held to LIGHTHOUSE_MIN
//   LIGHTHOUSE_RUNS=3                          runs per page; the table shows the median run
//   LIGHTHOUSE_PAGES=signature,investments     only the pages whose name or address has one of these
//   LIGHTHOUSE_MIN=100                         the lowest score that passes (0–100)
//   LIGHTHOUSE_CHROME=/usr/bin/chromium        the browser (never downloaded; by default Debian's
//                                              chromium, else its headless shell, which the journeys use)
//   LIGHTHOUSE_REPORT_DIR=/tmp/lh              also writes each run's full report and its trace there (JSON)
//
// Signed-in pages get the cookies of a sign-in through the login form (scripts/browser-client.mjs),
// set in the browser before each page (Lighthouse keeps cookies between runs; a Cookie header in
// its `extraHeaders` did not reach the portal's pages).
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import puppeteer from "puppeteer-core";
import { Browser } from "./browser-client.mjs";
import { startServers } from "./servers.mjs";

const MIN = Number(process.env.LIGHTHOUSE_MIN ?? 100);
const RUNS = Number(process.env.LIGHTHOUSE_RUNS ?? 1);
const FILTER = (process.env.LIGHTHOUSE_PAGES ?? "")
  .split(",")
  .map((s) => s.trim())
  .filter(Boolean);
const CHROME =
  process.env.LIGHTHOUSE_CHROME ??
  (existsSync("/usr/bin/chromium") ? "/usr/bin/chromium" : "/usr/bin/chromium-headless-shell");
const REPORT_DIR = process.env.LIGHTHOUSE_REPORT_DIR;

function fail(message) {
  console.error(`lighthouse: ${message}`);
  process.exit(2);
}

if (!Number.isFinite(MIN) || MIN < 0 || MIN > 100)
  fail(`LIGHTHOUSE_MIN must be 0–100, not ${process.env.LIGHTHOUSE_MIN}`);
if (!Number.isInteger(RUNS) || RUNS < 1 || RUNS > 10)
  fail(`LIGHTHOUSE_RUNS must be 1–10, not ${process.env.LIGHTHOUSE_RUNS}`);
if (!existsSync(CHROME)) fail(`no browser at ${CHROME} (LIGHTHOUSE_CHROME)`);

/** The first address in `html` that `pattern` (one group) finds, HTML entities undone. */
function firstLink(html, pattern, what) {
  const match = pattern.exec(html);
  if (!match) throw new Error(`no ${what} found`);
  return match[1].replaceAll("&amp;", "&");
}

/** The pages to measure: [name, address, who] where who is "anonymous", "client" or "adviser". */
async function pagesOf(client) {
  const MESSAGES = "/clients/documents-and-messages";
  const list = await (await client.fetch(MESSAGES)).text();
  const message = firstLink(
    list,
    /href="(\/clients\/documents-and-messages\?[^"]*message=\d+[^"]*)"/,
    "message in the messages list",
  );
  // A document of the To be signed folder that is waiting for the client's signature.
  const toBeSigned = await (await client.fetch(`${MESSAGES}?toBeSigned=true`)).text();
  const signature = firstLink(
    toBeSigned,
    /href="(\/clients\/documents-and-messages\/signatures\/\d+)"/,
    "document in the To be signed folder",
  );
  return [
    ["login", "/login", "anonymous"],
    ["clients home", "/clients/home", "client"],
    ["analysis", "/clients/analysis", "client"],
    ["analysis, value chart", "/clients/analysis?id=portfolio-1&range=SI&chart=value", "client"],
    ["analysis, investments", "/clients/analysis?tab=investments", "client"],
    ["analysis, investments expanded", "/clients/analysis?tab=investments&expand=all", "client"],
    ["analysis, allocation", "/clients/analysis?tab=allocation", "client"],
    ["analysis, transactions", "/clients/analysis?tab=transactions", "client"],
    ["analysis, instructions", "/clients/analysis?tab=instructions", "client"],
    ["analysis, payment", "/clients/analysis?tab=payment", "client"],
    ["balance sheet", "/clients/balance-sheet", "client"],
    ["messages", MESSAGES, "client"],
    ["a message", message, "client"],
    ["compose", `${MESSAGES}?compose=true`, "client"],
    ["signature", signature, "client"],
    ["annual review", "/clients/annual-review", "client"],
    ["valuation report", "/clients/valuation-report", "client"],
    ["personal details", "/clients/personal-details", "client"],
    ["adviser details", "/clients/adviser-details", "client"],
    ["preferences", "/clients/preferences", "client"],
    ["change password", "/clients/change-password", "client"],
    ["security questions", "/clients/security-questions", "client"],
    ["biometric permission", "/clients/biometric-permission", "client"],
    ["adviser's clients", "/advisers/clients", "adviser"],
    ["adviser's clients, all", "/advisers/clients?name=&dob=&postcode=", "adviser"],
  ];
}

/** The browser's cookies become `cookies` (a Map of name to value) for the page at `url`. */
async function useCookies(cdp, url, cookies) {
  await cdp.send("Storage.clearCookies");
  if (cookies.size)
    await cdp.send("Storage.setCookies", { cookies: [...cookies].map(([name, value]) => ({ name, value, url })) });
}

async function measure(port, url) {
  const result = await lighthouse(url, { port, output: "json", logLevel: "error", onlyCategories: ["performance"] });
  const { lhr } = result;
  if (REPORT_DIR) {
    mkdirSync(REPORT_DIR, { recursive: true });
    const name = new URL(url).pathname.replace(/\W+/g, "-") + new URL(url).search.replace(/\W+/g, "-");
    const stamp = Date.now();
    writeFileSync(join(REPORT_DIR, `${name}-${stamp}.json`), result.report);
    // the unthrottled trace the scores were simulated from (DevTools' Performance panel opens it)
    writeFileSync(join(REPORT_DIR, `${name}-${stamp}.trace.json`), JSON.stringify(result.artifacts.Trace));
  }
  if (lhr.runtimeError) throw new Error(`${url}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
  const audit = (id) => lhr.audits[id]?.numericValue ?? NaN;
  return {
    score: Math.round((lhr.categories.performance.score ?? 0) * 100),
    tbt: audit("total-blocking-time"),
    lcp: audit("largest-contentful-paint"),
    cls: audit("cumulative-layout-shift"),
    // Lighthouse's reading of the machine's speed when the run began: on a shared machine it moves
    // by half from one run to the next, and the simulated blocking time with it
    benchmark: lhr.environment.benchmarkIndex,
    finalUrl: lhr.finalDisplayedUrl,
  };
}

const servers = await startServers();
let chrome;
let browser;
let failed = false;
try {
  const client = new Browser(servers.portalUrl);
  await client.signIn("demo.client", "client");
  const adviser = new Browser(servers.portalUrl);
  await adviser.signIn("demo.adviser", "adviser");
  const cookies = { anonymous: new Map(), client: client.cookies, adviser: adviser.cookies };

  const pages = (await pagesOf(client)).filter(
    ([name, path]) => FILTER.length === 0 || FILTER.some((f) => name.includes(f) || path.includes(f)),
  );
  if (pages.length === 0) fail(`no page matches LIGHTHOUSE_PAGES=${process.env.LIGHTHOUSE_PAGES}`);

  chrome = await chromeLauncher.launch({ chromePath: CHROME, chromeFlags: ["--headless=new", "--no-sandbox"] });
  browser = await puppeteer.connect({ browserURL: `http://127.0.0.1:${chrome.port}` });
  const cdp = await browser.target().createCDPSession();
  const rows = [];
  for (const [name, path, who] of pages) {
    const url = new URL(path, servers.portalUrl).href;
    const runs = [];
    for (let i = 0; i < RUNS; i++) {
      await useCookies(cdp, url, cookies[who]);
      // A trace Lighthouse could not read (NO_NAVSTART and the like, on a busy machine) is run again once.
      runs.push(await measure(chrome.port, url).catch(() => measure(chrome.port, url)));
    }
    // The median run by score (then by blocking time), so the row's figures belong to one run.
    runs.sort((a, b) => a.score - b.score || b.tbt - a.tbt);
    const run = runs[Math.floor(runs.length / 2)];
    // A page that answered with another (the sign-in page for a lost session) was not measured.
    if (new URL(run.finalUrl).pathname !== new URL(url).pathname) throw new Error(`${path} ended at ${run.finalUrl}`);
    rows.push({ name, path, run, scores: runs.map((r) => r.score), benchmarks: runs.map((r) => r.benchmark) });
    process.stderr.write(`${name}: ${run.score}\n`);
  }

  console.log(
    `\nLighthouse ${RUNS > 1 ? `(median of ${RUNS} runs) ` : ""}performance, mobile, default throttling; passing score ${MIN}\n`,
  );
  console.log("| page | address | performance | TBT ms | LCP ms | CLS | machine (benchmark index) |");
  console.log("|---|---|---:|---:|---:|---:|---:|");
  for (const { name, path, run, scores, benchmarks } of rows) {
    const score = RUNS > 1 ? `${run.score} (${scores.join(", ")})` : String(run.score);
    const machine = `${Math.min(...benchmarks).toFixed(0)}–${Math.max(...benchmarks).toFixed(0)}`;
    console.log(
      `| ${name} | ${path} | ${score} | ${run.tbt.toFixed(0)} | ${run.lcp.toFixed(0)} | ${run.cls.toFixed(3)} | ${machine} |`,
    );
  }
  const below = rows.filter((r) => r.run.score < MIN);
  if (below.length) {
    failed = true;
    console.error(`\n${below.length} page(s) below ${MIN}: ${below.map((r) => `${r.name} ${r.run.score}`).join(", ")}`);
  }
} finally {
  await browser?.disconnect();
  await chrome?.kill();
  servers.stop();
}
process.exit(failed ? 1 : 0);
