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

import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";

const budgetKiB = Number(process.env.SIZE_BUDGET_KIB ?? 110);
const PUBLIC_PATH = "/build/";

const buildDir = process.env.REMIX_BUILD_DIR;
const serverBuild = path.resolve(buildDir ? `${buildDir}/index.js` : "build/index.js");
const assetsDir = path.resolve(buildDir ? `${buildDir}/public/build` : "public/build");

function fail(message) {
  console.error(`size: ${message}`);
  process.exit(2);
}

if (!Number.isFinite(budgetKiB) || budgetKiB <= 0)
  fail(`SIZE_BUDGET_KIB must be a positive number, not ${process.env.SIZE_BUDGET_KIB}`);
if (!existsSync(assetsDir)) fail(`no build in ${assetsDir}: run \`npm run build\` first`);

/** The manifest the server build refers to (the one its pages use). */
function manifestUrl() {
  if (existsSync(serverBuild)) {
    const url = /url:\s*"(\/build\/manifest-[A-Za-z0-9]+\.js)"/.exec(readFileSync(serverBuild, "utf8"))?.[1];
    if (url) return url;
  }
  const files = readdirSync(assetsDir).filter((f) => /^manifest-[A-Za-z0-9]+\.js$/.test(f));
  if (files.length !== 1) fail(`expected one manifest-*.js in ${assetsDir}, found ${files.length}`);
  return `${PUBLIC_PATH}${files[0]}`;
}

const fileOf = (url) => path.join(assetsDir, url.slice(PUBLIC_PATH.length));

function readManifest() {
  const text = readFileSync(fileOf(manifestUrl()), "utf8").trim();
  const json = text.replace(/^window\.__remixManifest\s*=\s*/, "").replace(/;$/, "");
  return JSON.parse(json);
}

// Static imports and re-exports (`import{a}from"/build/x.js"`, `import"./x.js"`, `export*from"…"`);
// `import("…")` has a parenthesis after `import` and does not match.
const STATIC_IMPORT = /\b(?:import|export)\s*(?:[\w*{}\s,$]+?\s*from\s*)?["']((?:\/build\/|\.\.?\/)[^"']+\.js)["']/g;

function staticImports(url) {
  const code = readFileSync(fileOf(url), "utf8");
  return [...code.matchAll(STATIC_IMPORT)].map((m) =>
    m[1].startsWith("/") ? m[1] : path.posix.join(path.posix.dirname(url), m[1]),
  );
}

function firstLoad(manifest, routeId) {
  const route = manifest.routes[routeId];
  if (!route) fail(`no route ${routeId} in the manifest`);
  const chain = [];
  for (let r = route; r; r = r.parentId ? manifest.routes[r.parentId] : undefined) chain.unshift(r);
  const pending = [
    manifest.entry.module,
    ...manifest.entry.imports,
    ...chain.flatMap((r) => [...(r.imports ?? []), r.module]),
  ];
  const files = new Set();
  while (pending.length) {
    const url = pending.pop();
    if (files.has(url)) continue;
    files.add(url);
    pending.push(...staticImports(url));
  }
  let raw = 0;
  let gzipped = 0;
  for (const url of files) {
    const body = readFileSync(fileOf(url));
    raw += body.length;
    gzipped += gzipSync(body).length;
  }
  return { routeId, files: files.size, raw, gzipped };
}

const manifest = readManifest();
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
for (const r of over) console.log(`OVER BUDGET: ${r.routeId}, ${kib(r.gzipped)} KiB gzipped`);
if (over.length) process.exit(1);
console.log(`${results.length} routes within budget.`);
