import { defineConfig, devices } from "@playwright/test";

/**
 * The simulated serverless host's browser test: `npm run test:simhost` (after `next build`, with
 * PostgreSQL and Redis). Its own configuration, not a project of playwright.config.ts: that one starts
 * `next start` on a fresh database for every project, while this test starts its own host (two frozen
 * and thawed instances of the standalone build behind tests/simhost/freezing-proxy.ts), and CI runs it
 * as its own step right after the standalone build's tests.
 */
const outputSuffix = process.env.E2E_OUTPUT ? `-${process.env.E2E_OUTPUT.replace(/[^\w-]/g, "")}` : "";

export default defineConfig({
  testDir: ".",
  testMatch: "*.spec.ts",
  outputDir: `../../test-results-simhost${outputSuffix}`,
  fullyParallel: false,
  workers: 1,
  forbidOnly: !!process.env.CI,
  retries: 0,
  // Bounds how long a failing run hangs; the journey's own targets are asserted inside it.
  timeout: 240_000,
  expect: { timeout: 20_000 },
  reporter: [["list"], ["html", { open: "never", outputFolder: `../../playwright-report-simhost${outputSuffix}` }]],
  use: {
    actionTimeout: 15_000,
    navigationTimeout: 30_000,
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--no-first-run"],
    },
  },
  projects: [{ name: "simhost", use: { ...devices["Desktop Chrome"], viewport: { width: 1280, height: 800 } } }],
});
