// `npm run bench`: how fast the main pages answer and how much JavaScript a first visit loads.
// Runs against a fresh platform and the built portal on this machine (run `npm run build` first).
// Bounded: a fixed number of requests to loopback addresses only.
import { gzipSync } from "node:zlib";
import { Browser } from "./browser-client.mjs";
import { startServers } from "./servers.mjs";

const SEQUENTIAL = Number(process.env.BENCH_REQUESTS ?? 60);
const CONCURRENCY = 8;

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

/** The platform's critical path on the request, from the portal's Server-Timing header (ms), or null. */
function platformMs(response) {
  const match = /(?:^|,)\s*platform;dur=([\d.]+)/.exec(response.headers.get("server-timing") ?? "");
  return match ? Number(match[1]) : null;
}

async function measure(browser, path) {
  const once = async (samples) => {
    const started = performance.now();
    const response = await browser.fetch(path);
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`${path} answered ${response.status}`);
    const total = performance.now() - started;
    const platform = platformMs(response);
    samples?.push({ total, platform, own: platform === null ? null : total - platform });
    return total;
  };
  for (let i = 0; i < 5; i++) await once();
  const samples = [];
  for (let i = 0; i < SEQUENTIAL; i++) await once(samples);
  const sorted = (key) =>
    samples
      .map((x) => x[key])
      .filter((v) => v !== null)
      .sort((a, b) => a - b);
  const times = sorted("total");
  const platform = sorted("platform");
  const own = sorted("own");
  const started = performance.now();
  let done = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      for (let i = 0; i < SEQUENTIAL / CONCURRENCY; i++) {
        await once();
        done++;
      }
    }),
  );
  const perSecond = done / ((performance.now() - started) / 1000);
  return {
    path,
    p50: percentile(times, 50),
    p95: percentile(times, 95),
    platform50: platform.length ? percentile(platform, 50) : null,
    own50: own.length ? percentile(own, 50) : null,
    perSecond,
  };
}

async function firstLoadJavaScript(browser, path) {
  const html = await (await browser.fetch(path)).text();
  const base = browser.base;
  const urls = new Set([...html.matchAll(/(?:href|src)="(\/build\/[^"]+\.js)"/g)].map((m) => m[1]));
  for (const m of html.matchAll(/import\("(\/build\/[^"]+\.js)"\)/g)) urls.add(m[1]);
  let raw = 0;
  let gzipped = 0;
  for (const url of urls) {
    const body = Buffer.from(await (await fetch(new URL(url, base))).arrayBuffer());
    raw += body.length;
    gzipped += gzipSync(body).length;
  }
  return { files: urls.size, raw, gzipped };
}

const servers = await startServers();
try {
  const client = new Browser(servers.portalUrl);
  await client.signIn("demo.client", "client");
  const adviser = new Browser(servers.portalUrl);
  await adviser.signIn("demo.adviser", "adviser");
  const anonymous = new Browser(servers.portalUrl);

  const results = [
    await measure(anonymous, "/login"),
    await measure(client, "/clients/home"),
    await measure(client, "/clients/analysis"),
    await measure(client, "/clients/analysis?id=portfolio-1&range=SI&chart=value"),
    await measure(client, "/clients/analysis?tab=investments&expand=all"),
    await measure(client, "/clients/analysis?tab=allocation"),
    await measure(client, "/clients/analysis/download/transactions?range=3Y"),
    await measure(client, "/clients/personal-details"),
    await measure(client, "/clients/adviser-details"),
    await measure(client, "/clients/documents-and-messages"),
    await measure(client, "/clients/documents-and-messages?pages=2&sort=subject-az"),
    await measure(adviser, "/advisers/clients?name=&dob=&postcode="),
    await measure(adviser, "/advisers/clients?name=&dob=&postcode=&pages=3"),
  ];
  const firstLoads = [
    ["/login", await firstLoadJavaScript(anonymous, "/login")],
    ["/clients/home", await firstLoadJavaScript(client, "/clients/home")],
    ["/clients/analysis", await firstLoadJavaScript(client, "/clients/analysis")],
    ["/advisers/clients", await firstLoadJavaScript(adviser, "/advisers/clients")],
    ["/clients/documents-and-messages", await firstLoadJavaScript(client, "/clients/documents-and-messages")],
  ];

  console.log(
    `\n${SEQUENTIAL} sequential requests per page after 5 warm-up, then ${SEQUENTIAL} more ${CONCURRENCY} at a time\n`,
  );
  // The portal's own time: the page's time minus its wait for the platform (Server-Timing). The
  // target (issue 16) is a page median at most 1.25 × the platform's critical path.
  console.log(
    "| page | p50 ms | p95 ms | platform p50 ms | portal's own p50 ms | page ÷ platform | pages/s at 8 concurrent |",
  );
  console.log("|---|---:|---:|---:|---:|---:|---:|");
  const fixed = (v) => (v === null ? "–" : v.toFixed(1));
  for (const r of results) {
    const ratio = r.platform50 ? (r.p50 / r.platform50).toFixed(2) : "–";
    console.log(
      `| ${r.path} | ${r.p50.toFixed(1)} | ${r.p95.toFixed(1)} | ${fixed(r.platform50)} | ${fixed(r.own50)} | ${ratio} | ${r.perSecond.toFixed(0)} |`,
    );
  }
  console.log("\n| first visit to | JavaScript files | KiB | KiB gzipped |");
  console.log("|---|---:|---:|---:|");
  for (const [path, js] of firstLoads) {
    console.log(`| ${path} | ${js.files} | ${(js.raw / 1024).toFixed(1)} | ${(js.gzipped / 1024).toFixed(1)} |`);
  }
} finally {
  servers.stop();
}
