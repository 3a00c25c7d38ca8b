// `npm run size`: the JavaScript a first visit to a page downloads, read from the production build
// (run `npm run build` first; REMIX_BUILD_DIR when the build is elsewhere). No server needed.
//
// A first visit loads what Remix's <Scripts> lists (future flag v3_lazyRouteDiscovery, so no
// manifest file): the client entry and its imports, then each matched route from the root down
// (module and imports); the browser then follows every static import of those files. Dynamic
// imports (lazily loaded chunks such as the interactive charts) are not counted.
//
//   npm run size                          every route of the build, each held to its budget
//   npm run size -- routes/clients.home   given route ids
//   SIZE_BUDGET_KIB=110                   every page's budget, gzipped (issue 16)
//
// Pages keep what only some of their views need out of the first load: zod and the forms' schemas
// load after the page, and the login page's sign-in steps and passkey button and the messages page's
// compose form load when shown (docs/decisions/104).

import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { buildPaths, fileOf, firstLoadUrls, readManifest } from "./first-load.mjs";

const budgetKiB = Number(process.env.SIZE_BUDGET_KIB ?? 111); // 110 by issue 16; 111 for now (docs/decisions/198)
const paths = buildPaths();
const { assetsDir } = paths;

function fail(message) {
  console.error(`size: ${message}`);
  process.exit(2);
}

if (!Number.isFinite(budgetKiB) || budgetKiB <= 0)
  fail(`SIZE_BUDGET_KIB must be a positive number, not ${process.env.SIZE_BUDGET_KIB}`);
if (!existsSync(assetsDir)) fail(`no build in ${assetsDir}: run \`npm run build\` first`);

function firstLoad(manifest, routeId) {
  const files = firstLoadUrls(assetsDir, manifest, routeId);
  if (!files) fail(`no route ${routeId} in the manifest`);
  let raw = 0;
  let gzipped = 0;
  for (const url of files) {
    const body = readFileSync(fileOf(assetsDir, url));
    raw += body.length;
    gzipped += gzipSync(body).length;
  }
  return { routeId, files: files.size, raw, gzipped };
}

const manifest = readManifest(paths);
/** Every route of the build (a resource route loads no script, and measures as the root alone). */
const pages = Object.keys(manifest.routes);
const routes = process.argv.slice(2).length ? process.argv.slice(2) : pages;
const results = routes.map((id) => firstLoad(manifest, id));
const kib = (bytes) => (bytes / 1024).toFixed(1);

console.log(`First-load JavaScript from ${path.relative(process.cwd(), assetsDir) || "."}\n`);
console.log("| route | files | KiB | KiB gzipped |");
console.log("|---|---:|---:|---:|");
for (const r of results) console.log(`| ${r.routeId} | ${r.files} | ${kib(r.raw)} | ${kib(r.gzipped)} |`);

const over = results.filter((r) => r.gzipped > budgetKiB * 1024);
console.log("");
console.log(`Budget ${budgetKiB} KiB gzipped for every route.`);
const largest = [...results].sort((a, b) => b.gzipped - a.gzipped)[0];
if (largest) console.log(`Largest: ${largest.routeId}, ${kib(largest.gzipped)} KiB.`);
for (const r of over)
  console.log(`OVER BUDGET: ${r.routeId}, ${kib(r.gzipped)} KiB gzipped (${r.gzipped - budgetKiB * 1024} bytes over)`);
if (over.length) process.exit(1);
console.log(`${results.length} routes within budget.`);
