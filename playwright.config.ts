import { randomBytes } from "node:crypto";
import { defineConfig, devices } from "@playwright/test";
import postgres from "postgres";
import { freePort } from "./tests/helpers/free-port";

/**
 * Browser tests: `npm run test:e2e` (= `playwright test`). The web server is the production build
 * (`tests/e2e/serve.ts`: build when the sources changed, fresh database, `next start`).
 *
 * Playwright loads this file in the runner and again in every worker; the port and the database are
 * chosen once, in the runner, and handed to the workers through the environment they inherit.
 *
 * - `E2E_BASE_URL`: test an already running server instead (no web server, no fresh database).
 * - `E2E_PORT`: the port for `next start` (default: a free one).
 * - `E2E_POSTGRES_URL` (or `TEST_DATABASE_URL`): the PostgreSQL server that gets a fresh database for the
 *   run (default `postgres://postgres@127.0.0.1:5432/postgres`; when that one does not answer, a fresh
 *   PGlite directory is used instead).
 * - `E2E_BUILD`: `auto` (default: build when a source is newer than `.next/BUILD_ID`), `always`, `never`.
 * - `E2E_OUTPUT`: a suffix for `test-results` and `playwright-report`, so that runs side by side (CI's
 *   two shards, `--shard=1/2` and `--shard=2/2`, each with its own server and database) keep their own.
 */
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const DEFAULT_POSTGRES = "postgres://postgres@127.0.0.1:5432/postgres";

async function postgresAnswers(url: string): Promise<boolean> {
  const sql = postgres(url, { max: 1, connect_timeout: 3, onnotice: () => {} });
  try {
    await sql`select 1`;
    return true;
  } catch {
    return false;
  } finally {
    await sql.end({ timeout: 1 }).catch(() => {});
  }
}

const external = process.env.E2E_BASE_URL?.replace(/\/$/, "");
if (!external && process.env.E2E_SERVER_URL === undefined) {
  const port = process.env.E2E_PORT ?? String(await freePort());
  process.env.E2E_SERVER_URL = `http://127.0.0.1:${port}`;
  const explicit = process.env.E2E_POSTGRES_URL ?? process.env.TEST_DATABASE_URL;
  const serverUrl = explicit ?? DEFAULT_POSTGRES;
  if (explicit || (await postgresAnswers(serverUrl))) {
    const url = new URL(serverUrl);
    url.pathname = `/csig_e2e_${randomBytes(6).toString("hex")}`;
    // The database the server runs on; tests may read it to check what the browser did.
    process.env.E2E_DATABASE_URL = url.toString();
  } else {
    process.env.E2E_DATABASE_URL = "";
  }
}
const baseURL = external ?? process.env.E2E_SERVER_URL!;
const outputSuffix = process.env.E2E_OUTPUT ? `-${process.env.E2E_OUTPUT.replace(/[^\w-]/g, "")}` : "";

export default defineConfig({
  testDir: "tests/e2e",
  testMatch: "**/*.spec.ts",
  outputDir: `test-results${outputSuffix}`,
  fullyParallel: false,
  // Two shared cores: one browser at a time keeps timings honest and the server responsive.
  workers: Number(process.env.E2E_WORKERS ?? 1),
  forbidOnly: !!process.env.CI,
  retries: 0,
  // Room for a busy shared machine (CI runs two shards side by side on two cores): these bound how long
  // a failing test hangs, not how fast a passing one runs (those take a few seconds on a quiet machine).
  timeout: 120_000,
  expect: { timeout: 20_000 },
  reporter: [["list"], ["html", { open: "never", outputFolder: `playwright-report${outputSuffix}` }]],
  use: {
    baseURL,
    actionTimeout: 15_000,
    navigationTimeout: 30_000,
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    launchOptions: {
      // Debian's Chromium: Playwright's own browser download is not available here.
      executablePath: CHROMIUM,
      args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--no-first-run"],
    },
  },
  projects: [
    {
      name: "desktop",
      grepInvert: /@phone/,
      use: { ...devices["Desktop Chrome"], viewport: { width: 1280, height: 800 } },
    },
    {
      name: "phone",
      grepInvert: /@desktop/,
      // A Chromium phone (touch, mobile viewport meta honoured) at the 390 px width the product targets.
      use: { ...devices["Pixel 7"], viewport: { width: 390, height: 844 }, screen: { width: 390, height: 844 } },
    },
  ],
  webServer: external
    ? undefined
    : {
        command: "node --import tsx tests/e2e/serve.ts",
        url: `${baseURL}/ready`,
        env: { E2E_SERVER_URL: baseURL, E2E_DATABASE_URL: process.env.E2E_DATABASE_URL ?? "" },
        // A cold `next build` on two shared cores takes minutes.
        timeout: 600_000,
        reuseExistingServer: false,
        stdout: "pipe",
        stderr: "pipe",
        // SIGTERM lets serve.ts stop `next start` and drop the run's database.
        gracefulShutdown: { signal: "SIGTERM", timeout: 20_000 },
      },
});
