/** @type {import('@remix-run/dev').AppConfig} */
export default {
  ignoredRouteFiles: ["**/.*", "**/*.test.{ts,tsx}"],
  serverModuleFormat: "esm",
  serverDependenciesToBundle: [/^remix-utils/, /^remix-i18next/, /^is-ip/, /^ip-regex/, /^super-regex/, /^intl-parse-accept-language/],
  browserNodeBuiltinsPolyfill: { modules: {} },
  future: {
    v3_fetcherPersist: true,
    v3_relativeSplatPath: true,
    v3_throwAbortReason: true,
    v3_lazyRouteDiscovery: true,
  },
};
