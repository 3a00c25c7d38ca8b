// @ts-check
// The portal's server in development (`npm run dev`, docs/decisions/152): the production server's
// app (scripts/portal-app.mjs), run by `remix dev --manual`. Remix's compiler rebuilds on every
// change under app/ and writes the build's version.txt last; the server then imports the new build
// and tells the compiler it is ready (broadcastDevReady), which reloads or updates the browser.
// It keeps running across rebuilds: its port, its connections and the sign-ins stay.
import { statSync, watch } from "node:fs";
import { dirname } from "node:path";
import { pathToFileURL } from "node:url";
import { broadcastDevReady, installGlobals } from "@remix-run/node";
import { buildPath, createPortalApp, importBuild, log, portalAddress, servePortal } from "./portal-app.mjs";

/** @typedef {import("./portal-app.mjs").PortalBuild} PortalBuild */

process.env.NODE_ENV = process.env.NODE_ENV ?? "development";
process.setSourceMapsEnabled(true);

/**
 * The build as it is on disk now. ESM keeps a module by its address for the life of the process,
 * so each build is imported under an address of its own (Remix's manual mode guide); the old ones
 * stay in memory until the server is started again.
 */
const importLatest = () => importBuild(`${pathToFileURL(buildPath).href}?t=${statSync(buildPath).mtimeMs}`);

/** Tells `remix dev` that this server now runs `build`; a server started without it says so. */
function ready(/** @type {PortalBuild} */ build) {
  broadcastDevReady(build).catch((/** @type {unknown} */ error) =>
    log("warn", "remix dev was not told the build is ready", { error: String(error) }),
  );
}

const address = portalAddress();
const first = await importLatest();
if (!first) process.exit(1);
let build = first;
installGlobals({ nativeFetch: true });

servePortal(await createPortalApp(() => build), address, () => ready(build));

// A rebuild ends with version.txt: one import at a time, the last build wins. A build the server
// cannot run is said in the log, and the one before keeps serving.
let importing = Promise.resolve();
watch(dirname(buildPath), (_event, name) => {
  if (name !== "version.txt") return;
  importing = importing.then(async () => {
    const next = await importLatest().catch((/** @type {unknown} */ error) => {
      log("error", "the new build could not be imported", { error: String(error) });
      return null;
    });
    if (!next || next === build) return;
    build = next;
    log("info", "portal runs the new build", { version: next.assets.version });
    ready(next);
  });
});
