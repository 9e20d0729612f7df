import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

// Browser tests against a running server (E2E_BASE_URL); `npm run test:e2e` (tests/e2e/run.ts) provides one.
export default defineConfig({
  resolve: { alias: { "@": fileURLToPath(new URL("./", import.meta.url)) } },
  test: {
    include: ["tests/e2e/**/*.e2e.test.ts"],
    environment: "node",
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: "forks",
    fileParallelism: false,
  },
});
