import nextCoreWebVitals from "eslint-config-next/core-web-vitals";
import nextTypescript from "eslint-config-next/typescript";
import local from "./eslint-rules/no-import-cycle.mjs";
import client from "./eslint-rules/no-db-in-client.mjs";

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
  // Layers: domain code (lib/<aggregate>/, db/) never imports the HTTP layer. Only lib/api itself
  // and lib/next (which mounts the /v1 handler in Next) may; see docs/architecture.md "Layers".
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
          ],
        },
      ],
      "no-restricted-syntax": [
        "error",
        {
          selector: "ImportExpression[source.value=/^(@\\/lib\\/api|\\.\\/api|(\\.\\.\\/)+(lib\\/)?api)(\\/|$)/]",
          message: "Domain code must not import the HTTP layer (lib/api), not even lazily.",
        },
      ],
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
