// A stand-in for the portal's server build (tests/scripts/request-log-queries.test.ts): what
// scripts/portal-app.mjs takes from the build's entry, its logger recording each line in
// globalThis.__portalLogLines; no route, so Remix answers every page with an error.
const write =
  (level) =>
  (message, fields = {}) =>
    globalThis.__portalLogLines.push({ level, message, ...fields });
export const entry = {
  module: {
    logger: { info: write("info"), warn: write("warn"), error: write("error"), debug: write("debug") },
    requestIdOf: (id) => id ?? "made-here",
    runWithRequestId: (_id, next) => next(),
    answerSecurityHeaders: () => ({}),
    apiAnswerDisposition: () => null,
    routeSections: () => [],
    sectionsOfTarget: () => [],
  },
};
export const routes = {};
export const assets = {
  routes: {},
  version: "test",
  url: "/build/manifest.js",
  entry: { module: "/build/entry.js", imports: [] },
};
export const publicPath = "/build/";
export const assetsBuildDirectory = "public/build";
export const future = {};
export const mode = "production";
export const isSpaMode = false;
