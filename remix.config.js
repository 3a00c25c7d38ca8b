// REMIX_BUILD_DIR lets several builds live side by side (e.g. parallel work on one machine).
const buildDir = process.env.REMIX_BUILD_DIR;

/** @type {import('@remix-run/dev').AppConfig} */
export default {
  ...(buildDir
    ? {
        serverBuildPath: `${buildDir}/index.js`,
        assetsBuildDirectory: `${buildDir}/public/build`,
        cacheDirectory: `${buildDir}/.cache`,
      }
    : {}),
  ignoredRouteFiles: ["**/.*", "**/*.test.{ts,tsx}"],
  serverModuleFormat: "esm",
  serverDependenciesToBundle: [/^remix-utils/, /^remix-i18next/],
  browserNodeBuiltinsPolyfill: { modules: {} },
  future: {
    v3_fetcherPersist: true,
    v3_relativeSplatPath: true,
    v3_throwAbortReason: true,
    v3_lazyRouteDiscovery: true,
  },
};
