// `npm run bench:cpu`: what each main page costs the machine that serves it. For each page, the
// portal's and the platform's CPU per request, read from /proc over BENCH_CPU_REQUESTS requests
// (200) sent 8 at a time after 20 to warm up; the HTML's size and the loader data's within it; the
// platform calls the portal makes for it (its metrics). Runs against a fresh platform and the built
// portal on this machine (run `npm run build` first). Bounded: loopback addresses only.
//
// BENCH_BASELINE=<dir>: another checkout of the project, built and installed (`npm ci && npm run
// build` there), measured in the same run on its own platform and portal, in blocks that alternate
// with this checkout's, so that both columns see the same machine.
import { Browser } from "./browser-client.mjs";
import { cpuSeconds, startServers } from "./servers.mjs";

const REQUESTS = Number(process.env.BENCH_CPU_REQUESTS ?? 200);
const WARM_UP = 20;
const CONCURRENCY = 8;
const BLOCKS = 4;

/** The platform calls the portal has made so far: the count of its calls' duration histogram. */
async function platformCalls(metricsUrl) {
  const text = await (await fetch(metricsUrl)).text();
  let total = 0;
  for (const match of text.matchAll(/^portal_platform_call_duration_seconds_count\{[^}]*\} (\d+)/gm)) {
    total += Number(match[1]);
  }
  return total;
}

/** The bytes of the loader data Remix serialised into the page (its `__remixContext` script). */
function loaderDataBytes(html) {
  const start = html.indexOf("window.__remixContext");
  if (start < 0) return 0;
  return Buffer.byteLength(html.slice(start, html.indexOf("</script>", start)));
}

async function get(browser, path) {
  const response = await browser.fetch(path, { headers: { accept: "text/html" } });
  const body = await response.text();
  if (response.status !== 200) throw new Error(`${path} answered ${response.status}`);
  return body;
}

/** `count` requests for the page, CONCURRENCY at a time. */
async function send(browser, path, count) {
  let left = count;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (left > 0) {
        left--;
        await get(browser, path);
      }
    }),
  );
}

/** One side of the comparison: a platform and a portal, and its signed-in browsers. */
async function side(name, cwd) {
  const servers = await startServers({ metrics: true, cwd });
  const client = new Browser(servers.portalUrl);
  await client.signIn("demo.client", "client");
  const messages = new Browser(servers.portalUrl);
  await messages.signIn("demo.messages", "client");
  const adviser = new Browser(servers.portalUrl);
  await adviser.signIn("demo.adviser", "adviser");
  return { name, servers, browsers: { anonymous: new Browser(servers.portalUrl), client, messages, adviser } };
}

/** demo.messages' first message whose page links an attachment. */
async function messageWithAttachments(browser) {
  const list = await get(browser, "/clients/documents-and-messages");
  for (const [, id] of list.matchAll(/[?&]message=(\d+)/g)) {
    const path = `/clients/documents-and-messages?message=${id}`;
    if ((await get(browser, path)).includes("/attachments/")) return path;
  }
  throw new Error("no message of demo.messages has an attachment");
}

function cpu(servers) {
  return { portal: cpuSeconds(servers.pids.portal), platform: cpuSeconds(servers.pids.platform) };
}

async function measurePage(sides, page) {
  const results = new Map();
  for (const s of sides) {
    const browser = s.browsers[page.as];
    const before = await platformCalls(s.servers.portalMetricsUrl);
    await send(browser, page.path, WARM_UP);
    const calls = ((await platformCalls(s.servers.portalMetricsUrl)) - before) / WARM_UP;
    const html = await get(browser, page.path);
    results.set(s.name, { calls, html: Buffer.byteLength(html), data: loaderDataBytes(html), portal: 0, platform: 0 });
  }
  // The sides take turns, a block of requests each, so a busy spell on the machine falls on both.
  for (let block = 0; block < BLOCKS; block++) {
    for (const s of sides) {
      const result = results.get(s.name);
      const start = cpu(s.servers);
      await send(s.browsers[page.as], page.path, REQUESTS / BLOCKS);
      const end = cpu(s.servers);
      result.portal += end.portal - start.portal;
      result.platform += end.platform - start.platform;
    }
  }
  for (const result of results.values()) {
    result.portal = (result.portal * 1000) / REQUESTS;
    result.platform = (result.platform * 1000) / REQUESTS;
  }
  return results;
}

/** The results as a Markdown table; with a baseline, each figure before and now, and the CPU's ratios. */
function printTable(names, rows) {
  const both = names.length === 2;
  const fixed = (v) => v.toFixed(1);
  const kib = (v) => (v / 1024).toFixed(1);
  const values = (results, key, format) => names.map((n) => format(results.get(n)[key]));
  const ratio = (results, key) => (both ? [(results.get("now")[key] / results.get("baseline")[key]).toFixed(2)] : []);
  const columns = (label, withRatio = false) =>
    both ? [`${label} before`, `${label} now`, ...(withRatio ? ["now ÷ before"] : [])] : [label];
  const header = [
    "page",
    ...columns("portal ms", true),
    ...columns("platform ms", true),
    ...columns("platform calls"),
    ...columns("HTML KiB"),
    ...columns("loader data KiB"),
  ];
  console.log(
    `\nCPU per request in ms (user + system, /proc), over ${REQUESTS} requests ${CONCURRENCY} at a time after ${WARM_UP} to warm up; node ${process.version}\n`,
  );
  console.log(`| ${header.join(" | ")} |`);
  console.log(
    `|---|${header
      .slice(1)
      .map(() => "---:")
      .join("|")}|`,
  );
  for (const [page, results] of rows) {
    const cells = [
      ...values(results, "portal", fixed),
      ...ratio(results, "portal"),
      ...values(results, "platform", fixed),
      ...ratio(results, "platform"),
      ...values(results, "calls", fixed),
      ...values(results, "html", kib),
      ...values(results, "data", kib),
    ];
    console.log(`| ${page.path.replace(/message=\d+/, "message=(with attachments)")} | ${cells.join(" | ")} |`);
  }
}

const sides = [await side("now", process.cwd())];
if (process.env.BENCH_BASELINE) sides.unshift(await side("baseline", process.env.BENCH_BASELINE));
try {
  const pages = [
    { path: "/login", as: "anonymous" },
    { path: "/clients/home", as: "client" },
    { path: "/clients/analysis", as: "client" },
    { path: "/clients/analysis?tab=investments&expand=all", as: "client" },
    { path: "/clients/analysis?tab=allocation", as: "client" },
    { path: "/clients/documents-and-messages", as: "messages" },
    { path: await messageWithAttachments(sides.at(-1).browsers.messages), as: "messages" },
    { path: "/advisers/clients?name=&dob=&postcode=&pages=3", as: "adviser" },
  ];
  const rows = [];
  for (const page of pages) rows.push([page, await measurePage(sides, page)]);

  printTable(
    sides.map((s) => s.name),
    rows,
  );
} finally {
  for (const s of sides) s.servers.stop();
}
