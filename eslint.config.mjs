import nextCoreWebVitals from "eslint-config-next/core-web-vitals";
import nextTypescript from "eslint-config-next/typescript";
import local from "./eslint-rules/no-import-cycle.mjs";
import client from "./eslint-rules/no-db-in-client.mjs";

/**
 * One config entry per route group: importing a file of a group not in its allow list is an error,
 * statically or through `import()`. Paths are matched by their `(group)/` segment, so `@/app/(x)/…`
 * and `../../(x)/…` count alike. Code outside the groups may import none of them.
 */
function routeAreaRules(allowed) {
  const escape = (text) => text.replace(/[()]/g, "\\$&");
  const rule = (others, area) => {
    const regex = `(^|/)(${others.map(escape).join("|")})/`;
    const message = area
      ? `The ${area} route area must not import another area's files: move what both need to app/_lib, app/_components or components/.`
      : "Shared code must not import a route area's files: move what it needs to app/_lib, app/_components or components/.";
    return {
      "no-restricted-imports": ["error", { patterns: [{ regex, message }] }],
      "no-restricted-syntax": ["error", { selector: `ImportExpression[source.value=/${regex.replace(/\//g, "\\/")}/]`, message }],
    };
  };
  const areas = Object.keys(allowed);
  return [
    { files: ["app/_lib/**", "app/_components/**", "components/**", "app/api/**", "app/verify/**", "app/dev/**"], rules: rule(areas, null) },
    ...areas.map((area) => ({
      files: [`app/${area}/**/*.{ts,tsx}`],
      rules: rule(
        areas.filter((other) => other !== area && !allowed[area].includes(other)),
        area,
      ),
    })),
  ];
}

/**
 * The layers below the web layer (lib/, db/, components/) never import app/: what they share with
 * pages lives in lib/ or components/. Matched on `@/app/…` and on relative paths that climb into app/.
 */
const APP_IMPORT = {
  regex: "^(@/app|(\\.\\./)+app)(/|$)",
  message: "lib/, db/ and components/ must not import app/: move what both need down into lib/ or components/.",
};
const APP_IMPORT_EXPRESSION = {
  selector: "ImportExpression[source.value=/^(@\\/app|(\\.\\.\\/)+app)(\\/|$)/]",
  message: APP_IMPORT.message,
};

const config = [
  { ignores: [".next/**", "node_modules/**", ".data/**", "db/migrations/**", "next-env.d.ts", "coverage/**", "test-results/**", "playwright-report/**", "dist/**"] },
  ...nextCoreWebVitals,
  ...nextTypescript,
  {
    rules: {
      "no-restricted-properties": [
        "error",
        { object: "process", property: "env", message: "Read configuration through lib/env.ts (getEnv)." },
      ],
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
    },
  },
  {
    files: ["lib/env.ts", "instrumentation.ts", "tests/**", "bench/**", "scripts/**", "*.config.*"],
    rules: { "no-restricted-properties": "off" },
  },
  // Layers: domain code (lib/<aggregate>/, db/) never imports the HTTP layer, nor Next's cookies and
  // headers. Only lib/api itself and lib/next (the web layer inside lib: the /v1 mount, route wrappers,
  // link-session cookies) may; see docs/architecture.md "Layers".
  {
    files: ["lib/**/*.{ts,tsx}", "db/**/*.ts"],
    ignores: ["lib/api/**", "lib/next/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              regex: "^(@/lib/api|\\./api|(\\.\\./)+(lib/)?api)(/|$)",
              message: "Domain code must not import the HTTP layer (lib/api): return rows or domain objects and let the route serialize.",
            },
            APP_IMPORT,
            {
              regex: "^next/headers$",
              message: "Only the web layer (app/, lib/next, lib/api) reads or writes cookies and request headers: take values as arguments (link sessions: lib/next/link-sessions.ts).",
            },
          ],
        },
      ],
      "no-restricted-syntax": [
        "error",
        {
          selector: "ImportExpression[source.value=/^(@\\/lib\\/api|\\.\\/api|(\\.\\.\\/)+(lib\\/)?api)(\\/|$)/]",
          message: "Domain code must not import the HTTP layer (lib/api), not even lazily.",
        },
        APP_IMPORT_EXPRESSION,
      ],
    },
  },
  // Route areas: each route group under app/ serves one kind of user and keeps its files to itself.
  // A group may import another group's files only when listed here: `(package)` owns /signings/<id>,
  // which the signer and the manager share, and dispatches to the view of each. Shared code lives in
  // app/_lib, app/_components, components/ and lib/, which import no route group at all.
  ...routeAreaRules({
    "(access)": [],
    "(account)": [],
    "(agent)": [],
    "(auth)": [],
    "(manager)": [],
    "(package)": ["(signer)", "(manager)"],
    "(signer)": [],
  }),
  {
    // The HTTP layer and the Next mount (exempt from the domain rule above) and components/ stay below app/
    // as well. For components/ this replaces the shared-code rule above, which it includes: no app/ import
    // at all means no route area's either.
    files: ["lib/api/**/*.{ts,tsx}", "lib/next/**/*.{ts,tsx}", "components/**/*.{ts,tsx}"],
    rules: {
      "no-restricted-imports": ["error", { patterns: [APP_IMPORT] }],
      "no-restricted-syntax": ["error", APP_IMPORT_EXPRESSION],
    },
  },
  {
    // Every import counts, `import type` included: see eslint-rules/no-import-cycle.mjs.
    files: ["**/*.{ts,tsx,mts,cts,js,jsx,mjs,cjs}"],
    plugins: { local },
    rules: { "local/no-import-cycle": ["error", { aliases: { "@/": "" } }] },
  },
  {
    // Database code never reaches the browser: see eslint-rules/no-db-in-client.mjs.
    files: ["**/*.{ts,tsx,js,jsx}"],
    plugins: { client },
    rules: { "client/no-db-in-client": "error" },
  },
];

export default config;
