import nextCoreWebVitals from "eslint-config-next/core-web-vitals";
import nextTypescript from "eslint-config-next/typescript";
import local from "./eslint-rules/no-import-cycle.mjs";

const config = [
  { ignores: [".next/**", "node_modules/**", ".data/**", "db/migrations/**", "next-env.d.ts", "coverage/**", "test-results/**"] },
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
  {
    // Every import counts, `import type` included: see eslint-rules/no-import-cycle.mjs.
    files: ["**/*.{ts,tsx,mts,cts,js,jsx,mjs,cjs}"],
    plugins: { local },
    rules: { "local/no-import-cycle": ["error", { aliases: { "@/": "" } }] },
  },
];

export default config;
