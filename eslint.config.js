import fs from "node:fs";
import js from "@eslint/js";
import { createTypeScriptImportResolver } from "eslint-import-resolver-typescript";
import importX from "eslint-plugin-import-x";
import jsxA11y from "eslint-plugin-jsx-a11y";
import react from "eslint-plugin-react";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

// The portal's floors (docs/decisions/090-one-room-per-page.md): each imports only the floors below
// it, so the import graph reads one way: routes → components → session → planning → runtime → lib.
const DOCUMENT = ["./app/root.tsx", "./app/root.server.ts", "./app/entry.client.tsx", "./app/entry.server.tsx"];
const FLOORS = [
  {
    target: "./app/lib",
    above: ["./app/runtime", "./app/planning", "./app/session", "./app/components", "./app/routes", ...DOCUMENT],
    says: "app/lib holds pure rules: no configuration, platform, session, component or route",
  },
  {
    target: "./app/runtime",
    above: ["./app/planning", "./app/session", "./app/components", "./app/routes", ...DOCUMENT],
    says: "app/runtime (configuration, log, request context) imports only app/lib",
  },
  {
    target: "./app/planning",
    above: ["./app/session", "./app/components", "./app/routes", ...DOCUMENT],
    says: "app/planning is the platform's client: it imports only app/lib and app/runtime",
  },
  {
    target: "./app/session",
    above: ["./app/components", "./app/routes", ...DOCUMENT],
    says: "app/session imports the platform's client and below, never a component or a route",
  },
  {
    target: "./app/components",
    above: ["./app/session", "./app/planning", "./app/runtime", "./app/routes", ...DOCUMENT],
    says: "app/components is shared UI: it reads app/lib and the root's data contract, never the server floors or a route",
  },
];
// A page's own code stays in its folder: no route imports another route's folder.
const ROUTES = fs
  .readdirSync(new URL("./app/routes", import.meta.url), { withFileTypes: true })
  .filter((e) => e.isDirectory())
  .map((e) => e.name);
const ZONES = [
  ...FLOORS.flatMap(({ target, above, says }) => above.map((from) => ({ target, from, message: says }))),
  ...ROUTES.map((route) => ({
    target: `./app/routes/${route}`,
    from: "./app/routes",
    except: [`./${route}`],
    message:
      "a page's own code stays in its route folder; what two pages share goes to app/components, app/lib or a lower floor",
  })),
];

const ZOD_IMPORTS = [
  {
    name: "zod",
    message: "zod loads after the page: see app/components/browser-validation.ts",
    allowTypeImports: true,
  },
  {
    name: "zod/v4",
    message: "zod 4 parses the platform's answers, in server modules only (docs/decisions/159)",
    allowTypeImports: true,
  },
  {
    name: "@conform-to/zod",
    message: "zod loads after the page: see app/components/browser-validation.ts",
    allowTypeImports: true,
  },
];
const SCHEMA_IMPORTS = {
  group: ["**/*-schemas", "**/*-schema"],
  message:
    "schemas load after the page (app/components/browser-validation.ts); loaders and actions take them from a .server module",
  allowTypeImports: true,
};
const DATE_FNS_MESSAGE =
  "date-fns stays out of the browser's first load (decision 149): take dates from a .server module (lib/calendar.server, lib/format-date.server)";
// date-fns's index imports every one of its ~1,500 modules: 2.5 s of a process's start wherever it
// is not bundled (the platform under tsx, each vitest worker; docs/decisions/151). Types may still
// come from it.
const DATE_FNS_INDEX_MESSAGE =
  'Import the one function (or locale) you use: "date-fns/addDays", "date-fns/locale/en-GB".';
const DATE_FNS_INDEX = [
  { name: "date-fns", message: DATE_FNS_INDEX_MESSAGE, allowTypeImports: true },
  { name: "date-fns/locale", message: DATE_FNS_INDEX_MESSAGE, allowTypeImports: true },
];
const DATE_FNS_IMPORTS = [{ name: "date-fns", message: DATE_FNS_MESSAGE, allowTypeImports: true }];
const DATE_FNS_PATTERNS = [
  {
    group: ["date-fns/*", "@date-fns/*", "~/lib/format-date", "**/lib/format-date"],
    message: DATE_FNS_MESSAGE,
    allowTypeImports: true,
  },
];

export default tseslint.config(
  {
    ignores: [
      "build/**",
      "public/build/**",
      "node_modules/**",
      ".cache/**",
      "server/db/migrations/**",
      "test-results/**",
      "playwright-report/**",
      ".builds/**",
      "build-*/**",
      "test-results-*/**",
      "coverage/**",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ["**/*.{ts,tsx,js,mjs}"],
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "no-control-regex": "off",
    },
  },
  {
    // date-fns by one function's (or one locale's) module, everywhere (the blocks below that set
    // this rule again repeat DATE_FNS_INDEX).
    files: ["app/**/*.{ts,tsx}", "server/**/*.ts", "tests/**/*.ts", "e2e/**/*.ts"],
    rules: { "@typescript-eslint/no-restricted-imports": ["error", { paths: DATE_FNS_INDEX }] },
  },
  {
    // Issue 27, docs/decisions/136: a function reads as a short list of named steps. One of 80 lines or
    // more is a declarative table or waits to be split, and says which on its exemption
    // (tests/lint/function-length.test.ts keeps those to ten).
    files: ["app/**/*.{ts,tsx}", "server/**/*.ts", "scripts/**/*.mjs"],
    ignores: ["**/*.test.{ts,tsx}", "**/*.fixtures.ts"],
    rules: { "max-lines-per-function": ["error", { max: 79, IIFEs: true }] },
  },
  {
    files: ["app/**/*.tsx"],
    plugins: { react, "react-hooks": reactHooks, "jsx-a11y": jsxA11y },
    settings: { react: { version: "18" } },
    rules: {
      ...react.configs.recommended.rules,
      ...react.configs["jsx-runtime"].rules,
      ...reactHooks.configs.recommended.rules,
      ...jsxA11y.configs.recommended.rules,
      "react/prop-types": "off",
    },
  },
  {
    files: ["app/**/*.{ts,tsx}"],
    plugins: { "import-x": importX },
    settings: {
      "import-x/extensions": [".ts", ".tsx"],
      "import-x/parsers": { "@typescript-eslint/parser": [".ts", ".tsx"] },
      "import-x/resolver-next": [createTypeScriptImportResolver({ project: "./tsconfig.json" })],
    },
    rules: {
      "import-x/no-cycle": ["error", { ignoreExternal: true }],
      "import-x/no-restricted-paths": ["error", { basePath: import.meta.dirname, zones: ZONES }],
    },
  },
  {
    // The browser's code never imports zod or a schema module statically: a static import in a page's
    // graph (even one only its action uses) puts zod in the page's first load (issue 16,
    // docs/decisions/104). Server code takes them from app/session/validation.server.ts (or the route's
    // own .server module); the browser loads them after the page (app/components/browser-validation.ts).
    // Nor date-fns (decision 149): the page modules' dates come from .server modules.
    files: ["app/routes/**/*.tsx", "app/components/**/*.{ts,tsx}", "app/root.tsx", "app/entry.client.tsx"],
    ignores: ["**/*.test.{ts,tsx}", "**/*.server.{ts,tsx}"],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        { paths: [...ZOD_IMPORTS, ...DATE_FNS_IMPORTS], patterns: [SCHEMA_IMPORTS, ...DATE_FNS_PATTERNS] },
      ],
    },
  },
  {
    // The app's other modules the browser may reach (lib, session, a route folder's .ts modules): no
    // date-fns (decision 149). Its users are .server modules, and the lazy chart chunk's
    // line-chart.ts and lib/format-date.ts.
    files: ["app/**/*.{ts,tsx}"],
    ignores: [
      "app/routes/**/*.tsx",
      "app/components/**",
      "**/*.server.{ts,tsx}",
      "**/*.test.{ts,tsx}",
      "app/lib/format-date.ts",
      "app/root.tsx",
      "app/entry.client.tsx",
    ],
    rules: {
      "@typescript-eslint/no-restricted-imports": ["error", { paths: DATE_FNS_IMPORTS, patterns: DATE_FNS_PATTERNS }],
    },
  },
  {
    // The one browser module that steps and writes dates with date-fns: it loads with the
    // interactive chart, after the page (decision 149).
    files: ["app/components/charts/line-chart.ts"],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        { paths: [...ZOD_IMPORTS, ...DATE_FNS_INDEX], patterns: [SCHEMA_IMPORTS] },
      ],
    },
  },
);
