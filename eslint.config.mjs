import nextCoreWebVitals from "eslint-config-next/core-web-vitals";
import nextTypescript from "eslint-config-next/typescript";

const config = [
  { ignores: [".next/**", "node_modules/**", ".data/**", "db/migrations/**", "next-env.d.ts", "coverage/**", "test-results/**", "dist/**"] },
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
];

export default config;
