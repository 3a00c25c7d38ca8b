// The JavaScript a first visit to a page runs, read from the production build's manifest (no
// server needed): shared by `npm run size` and the build's compile hints (scripts/compile-hints.mjs).
//
// A first visit loads what Remix's <Scripts> lists (future flag v3_lazyRouteDiscovery, so no
// manifest file): the client entry and its imports, then each matched route from the root down
// (module and imports); the browser then follows every static import of those files. Dynamic
// imports (lazily loaded chunks such as the interactive charts) are not part of it.

import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";

const PUBLIC_PATH = "/build/";

/** The build's folders: the server build (index.js) and the browser's assets (public/build). */
export function buildPaths() {
  const buildDir = process.env.REMIX_BUILD_DIR;
  return {
    serverBuild: path.resolve(buildDir ? `${buildDir}/index.js` : "build/index.js"),
    assetsDir: path.resolve(buildDir ? `${buildDir}/public/build` : "public/build"),
  };
}

/** The manifest the server build refers to (the one its pages use). */
function manifestUrl({ serverBuild, assetsDir }) {
  if (existsSync(serverBuild)) {
    const url = /url:\s*"(\/build\/manifest-[A-Za-z0-9]+\.js)"/.exec(readFileSync(serverBuild, "utf8"))?.[1];
    if (url) return url;
  }
  const files = readdirSync(assetsDir).filter((f) => /^manifest-[A-Za-z0-9]+\.js$/.test(f));
  if (files.length !== 1) throw new Error(`expected one manifest-*.js in ${assetsDir}, found ${files.length}`);
  return `${PUBLIC_PATH}${files[0]}`;
}

/** The file of an asset's URL (`/build/…`). */
export function fileOf(assetsDir, url) {
  return path.join(assetsDir, url.slice(PUBLIC_PATH.length));
}

export function readManifest(paths) {
  const text = readFileSync(fileOf(paths.assetsDir, manifestUrl(paths)), "utf8").trim();
  const json = text.replace(/^window\.__remixManifest\s*=\s*/, "").replace(/;$/, "");
  return JSON.parse(json);
}

// Static imports and re-exports (`import{a}from"/build/x.js"`, `import"./x.js"`, `export*from"…"`);
// `import("…")` has a parenthesis after `import` and does not match.
const STATIC_IMPORT = /\b(?:import|export)\s*(?:[\w*{}\s,$]+?\s*from\s*)?["']((?:\/build\/|\.\.?\/)[^"']+\.js)["']/g;

function staticImports(assetsDir, url) {
  const code = readFileSync(fileOf(assetsDir, url), "utf8");
  return [...code.matchAll(STATIC_IMPORT)].map((m) =>
    m[1].startsWith("/") ? m[1] : path.posix.join(path.posix.dirname(url), m[1]),
  );
}

/** The URLs of the scripts a first visit to `routeId` loads, or undefined for a route the manifest lacks. */
export function firstLoadUrls(assetsDir, manifest, routeId) {
  const route = manifest.routes[routeId];
  if (!route) return undefined;
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
    pending.push(...staticImports(assetsDir, url));
  }
  return files;
}
