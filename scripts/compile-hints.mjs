// The last step of `npm run build`: marks the large scripts that pages run as they start for eager
// compilation (V8's explicit compile hints, the `//# allFunctionsCalledOnLoad` comment that Chromium
// reads since version 136; other browsers ignore it as a comment). A marked script is compiled whole
// on a background thread while it downloads; unmarked, the browser's main thread parses and compiles
// each function when it is first called, and for React DOM and Remix that is most of the moment the
// page's scripts first run, the page's largest blocking task (docs/decisions/161).
//
// Marked: every script of at least HINT_MIN_KIB that some page's first load runs (scripts/first-load.mjs):
// React DOM, Remix and the router, the root, the large route modules. Not marked: small files,
// whose compile costs little, and the chunks loaded later (charts, forms' checks), which a page may
// never call. The comment must be the file's first line; a file already marked is left alone, so
// running the step twice changes nothing.

import { readFileSync, statSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { buildPaths, fileOf, firstLoadUrls, readManifest } from "./first-load.mjs";

export const HINT = "//# allFunctionsCalledOnLoad\n";
const HINT_MIN_KIB = 10;

/**
 * Marks the build's first-load scripts of `minKib` or more; answers how many it marked now and how
 * many scripts the first loads have.
 * @param {{ serverBuild: string; assetsDir: string }} paths
 */
export function markFirstLoads(paths, minKib = HINT_MIN_KIB) {
  const manifest = readManifest(paths);
  const urls = new Set(
    Object.keys(manifest.routes).flatMap((id) => [...(firstLoadUrls(paths.assetsDir, manifest, id) ?? [])]),
  );
  let marked = 0;
  for (const url of urls) {
    const file = fileOf(paths.assetsDir, url);
    if (statSync(file).size < minKib * 1024) continue;
    const code = readFileSync(file, "utf8");
    if (code.startsWith(HINT)) continue;
    writeFileSync(file, HINT + code);
    marked++;
  }
  return { marked, scripts: urls.size };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { marked, scripts } = markFirstLoads(buildPaths());
  console.log(`compile hints: ${marked} of the first loads' ${scripts} scripts marked for eager compilation`);
}
