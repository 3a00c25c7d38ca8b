// @ts-check
// The portal's production server (`npm run start:portal`, docs/decisions/026): the portal's app
// (scripts/portal-app.mjs) on the build of REMIX_BUILD_DIR, imported once.
import { pathToFileURL } from "node:url";
import { installGlobals } from "@remix-run/node";
import { buildPath, createPortalApp, importBuild, portalAddress, servePortal } from "./portal-app.mjs";

process.env.NODE_ENV = process.env.NODE_ENV ?? "production";
// Stack traces point into app/ when the build carries source maps.
process.setSourceMapsEnabled(true);

const address = portalAddress();
const build = await importBuild(pathToFileURL(buildPath).href);
if (!build) process.exit(1);
// Node's own fetch, Request and streams (undici), as the tests and the platform use: the older
// replacement threw out of every handler, stopping the process, when a platform call timed out
// while its body was being sent (e2e/slow-platform.test.ts), and its form parser refused file
// names with '=' (docs/decisions/111).
installGlobals({ nativeFetch: true });

servePortal(await createPortalApp(build), address);
