// Playwright's web server (playwright.config.ts): build when needed, `next start` on a fresh database,
// and on SIGTERM stop the server and drop that database.
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import postgres from "postgres";

const ROOT = resolve(fileURLToPath(new URL("../..", import.meta.url)));
const NEXT_BIN = join(ROOT, "node_modules/next/dist/bin/next");
/** The web server `npm start` runs: Next behind our body caps and peer stamp. */
const WEB_SERVER = join(ROOT, "server.mjs");
/** What `next build` reads; tests, docs and benchmarks do not change the build. */
const BUILD_INPUTS = [
  "app",
  "components",
  "db",
  "i18n",
  "inngest",
  "lib",
  "messages",
  "public",
  "instrumentation.ts",
  "proxy.ts",
  "next.config.ts",
  "postcss.config.mjs",
  "tsconfig.json",
  "tsconfig.next.json",
  "package-lock.json",
];

process.chdir(ROOT);
const serverUrl = new URL(required("E2E_SERVER_URL"));
const databaseUrl = process.env.E2E_DATABASE_URL ?? "";
const workDir = mkdtempSync(join(tmpdir(), "csig-e2e-"));
let server: ChildProcess | undefined;
let buildGroup: number | undefined;
let databaseCreated = false;
let stopping: Promise<void> | undefined;

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: start the browser tests with \`npm run test:e2e\`.`);
  return value;
}

function say(message: string): void {
  process.stdout.write(`e2e: ${message}\n`);
}

function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // Already gone.
  }
}

/** The newest modification time among the build inputs that git knows or would add. */
function newestInput(): number {
  const files = execFileSync("git", ["ls-files", "-co", "--exclude-standard", "--", ...BUILD_INPUTS], { cwd: ROOT, encoding: "utf8" })
    .split("\n")
    .filter(Boolean);
  let newest = 0;
  for (const file of files) {
    try {
      newest = Math.max(newest, statSync(join(ROOT, file)).mtimeMs);
    } catch {
      // Deleted in the work tree.
    }
  }
  return newest;
}

function needsBuild(): boolean {
  const mode = process.env.E2E_BUILD ?? (process.env.SKIP_BUILD === "1" ? "never" : "auto");
  if (mode === "always") return true;
  const buildId = join(ROOT, ".next/BUILD_ID");
  if (mode === "never") {
    if (!existsSync(buildId)) throw new Error("E2E_BUILD=never but there is no production build (.next/BUILD_ID)");
    return false;
  }
  return !existsSync(buildId) || newestInput() > statSync(buildId).mtimeMs;
}

/**
 * Runs `next build` in its own process group and kills whatever it left behind: the build loads the
 * instrumentation hook in workers whose timers could otherwise outlive it.
 */
function build(env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [NEXT_BIN, "build"], { cwd: ROOT, env, stdio: ["ignore", "inherit", "inherit"], detached: true });
    buildGroup = child.pid;
    child.on("error", fail);
    child.on("exit", (code, signal) => {
      if (child.pid) killGroup(child.pid, "SIGKILL");
      buildGroup = undefined;
      if (code === 0) done();
      else fail(new Error(`next build failed (${signal ?? `exit ${code}`})`));
    });
  });
}

/** Creates the run's database (its name was chosen by playwright.config.ts), migrates and seeds it. */
async function createDatabase(url: string): Promise<void> {
  const name = new URL(url).pathname.slice(1);
  if (!/^csig_e2e_[0-9a-f]+$/.test(name)) throw new Error(`refusing to create an e2e database named ${name}`);
  const admin = new URL(url);
  admin.pathname = "/postgres";
  const sql = postgres(admin.toString(), { max: 1, onnotice: () => {} });
  try {
    await sql.unsafe(`create database ${name}`);
    databaseCreated = true;
  } finally {
    await sql.end();
  }
  const { migrateDb, openDb } = await import("@/db/client");
  const { seedDemo } = await import("@/lib/seed/seed-demo");
  const handle = await openDb({ url }, { max: 1 });
  try {
    await migrateDb(handle);
    await seedDemo(handle.db);
  } finally {
    await handle.close();
  }
}

async function dropDatabase(url: string): Promise<void> {
  const name = new URL(url).pathname.slice(1);
  const admin = new URL(url);
  admin.pathname = "/postgres";
  const sql = postgres(admin.toString(), { max: 1, onnotice: () => {} });
  try {
    await sql.unsafe(`drop database if exists ${name} with (force)`);
  } finally {
    await sql.end();
  }
}

/** Stops `next start` (Playwright's SIGTERM reached its worker too: same process group), drops the database, removes the temporary directory. */
function stop(): Promise<void> {
  stopping ??= (async () => {
    if (buildGroup) killGroup(buildGroup, "SIGKILL");
    const child = server;
    if (child && child.exitCode === null && child.signalCode === null) {
      const exited = new Promise<void>((r) => child.once("exit", () => r()));
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
      await exited;
      clearTimeout(timer);
    }
    if (databaseCreated) await dropDatabase(databaseUrl).catch((error: unknown) => console.error("e2e: could not drop the database:", error));
    rmSync(workDir, { recursive: true, force: true });
  })();
  return stopping;
}

for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
  process.once(signal, () => {
    void stop().finally(() => process.exit(0));
  });
}

async function main(): Promise<void> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: "production",
    NEXT_TELEMETRY_DISABLED: "1",
    APP_URL: serverUrl.origin,
    AUTH_SECRET: randomBytes(32).toString("base64url"),
    PGLITE_DIR: join(workDir, "pglite"),
    LOG_LEVEL: process.env.LOG_LEVEL ?? "warn",
    // As `npm start` does: in-process real time (comments) unless the caller sets it, even to empty.
    REALTIME_URL: process.env.REALTIME_URL ?? "memory:",
    // Outbound webhooks to a receiver in the test (webhook-delivery.spec.ts); allowed because APP_URL is loopback.
    WEBHOOKS_ALLOW_LOOPBACK: "1",
  };
  delete env.DATABASE_URL;
  delete env.TEST_DATABASE_URL;

  if (needsBuild()) {
    say("next build");
    // The build gets its own embedded database directory: nothing it opens may hold the server's lock.
    await build({ ...env, PGLITE_DIR: join(workDir, "build-pglite") });
  } else {
    say("the production build in .next is newer than every source file: not rebuilding (E2E_BUILD=always forces it)");
  }

  if (databaseUrl) {
    await createDatabase(databaseUrl);
    env.DATABASE_URL = databaseUrl;
    say(`fresh PostgreSQL database ${new URL(databaseUrl).pathname.slice(1)}`);
  } else {
    say(`PostgreSQL does not answer: fresh PGlite database in ${env.PGLITE_DIR}`);
    // Production never seeds the demo dataset by itself: the run seeds its database first.
    const { migrateDb, openDb } = await import("@/db/client");
    const { seedDemo } = await import("@/lib/seed/seed-demo");
    const handle = await openDb({ pgliteDir: env.PGLITE_DIR! });
    try {
      await migrateDb(handle);
      await seedDemo(handle.db);
    } finally {
      await handle.close();
    }
  }

  say(`next start on ${serverUrl.origin}`);
  // Same process group as this script: Playwright's SIGTERM to the group reaches `next start` too.
  // As `npm start`: server.mjs, Next behind the body caps and the peer stamp.
  server = spawn(process.execPath, [WEB_SERVER, "--port", serverUrl.port, "--hostname", serverUrl.hostname], {
    cwd: ROOT,
    env: { ...env, PORT: serverUrl.port },
    stdio: ["ignore", "inherit", "inherit"],
  });
  server.on("exit", (code, signal) => {
    if (stopping) return;
    console.error(`e2e: next start exited (${signal ?? `exit ${code}`})`);
    void stop().finally(() => process.exit(1));
  });
}

main().catch((error: unknown) => {
  console.error("e2e:", error instanceof Error ? error.message : error);
  void stop().finally(() => process.exit(1));
});
