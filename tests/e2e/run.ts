// npm run test:e2e – build, start `next start` on a fresh database, run the browser tests, always stop the server.
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { createWriteStream, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import postgres from "postgres";

const ROOT = resolve(fileURLToPath(new URL("../..", import.meta.url)));
const NEXT_BIN = join(ROOT, "node_modules/next/dist/bin/next");
const VITEST_BIN = join(ROOT, "node_modules/vitest/vitest.mjs");
const READY_TIMEOUT_MS = 120_000;

process.chdir(ROOT);
const workDir = mkdtempSync(join(tmpdir(), "csig-e2e-"));
const serverLog = join(workDir, "server.log");
let server: ChildProcess | undefined;
let dropDatabase: (() => Promise<void>) | undefined;

/** Process groups still to be killed on the way out (each child runs in its own group). */
const liveGroups = new Set<number>();

function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // Already gone.
  }
}

/**
 * Runs a command to completion in its own process group, then kills whatever it left behind:
 * `next build` runs the instrumentation hook in build workers, and their job worker timers could
 * otherwise outlive the build.
 */
function run(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolveExit, reject) => {
    const child = spawn(command, args, { cwd: ROOT, env, stdio: "inherit", detached: true });
    if (child.pid) liveGroups.add(child.pid);
    child.on("error", reject);
    child.on("exit", (code, signal) => {
      if (child.pid) {
        killGroup(child.pid, "SIGKILL");
        liveGroups.delete(child.pid);
      }
      resolveExit(code ?? (signal ? 1 : 0));
    });
  });
}

function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const probe = createServer();
    probe.unref();
    probe.on("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() => (typeof address === "object" && address ? resolvePort(address.port) : reject(new Error("no port"))));
    });
  });
}

/** A fresh database on the TEST_DATABASE_URL server, migrated and seeded with the demo dataset. */
async function createPostgresDatabase(serverUrl: string): Promise<string> {
  const name = `csig_e2e_${randomBytes(6).toString("hex")}`;
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  await admin.end();
  dropDatabase = async () => {
    const again = postgres(serverUrl, { max: 1, onnotice: () => {} });
    await again.unsafe(`drop database if exists ${name} with (force)`);
    await again.end();
  };
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const { migrateDb, openDb } = await import("@/db/client");
  const { seedDemo } = await import("@/lib/seed/seed-demo");
  const handle = await openDb({ url: url.toString() }, { max: 1 });
  try {
    await migrateDb(handle);
    await seedDemo(handle.db);
  } finally {
    await handle.close();
  }
  return url.toString();
}

async function waitForReady(baseUrl: string): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (!server || server.exitCode !== null || server.signalCode !== null) throw new Error("the server exited before it was ready");
    try {
      const response = await fetch(`${baseUrl}/ready`, { signal: AbortSignal.timeout(2_000) });
      if (response.ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${baseUrl}/ready did not answer 200 within ${READY_TIMEOUT_MS / 1000} s`);
}

/** Stops the whole process group (`next start` forks a worker), politely first. */
async function stopServer(): Promise<void> {
  const child = server;
  server = undefined;
  if (!child?.pid || child.exitCode !== null || child.signalCode !== null) return;
  const pid = child.pid;
  const exited = new Promise<void>((r) => child.once("exit", () => r()));
  killGroup(pid, "SIGTERM");
  const timer = setTimeout(() => killGroup(pid, "SIGKILL"), 5_000);
  await exited;
  clearTimeout(timer);
  killGroup(pid, "SIGKILL");
}

async function cleanup(): Promise<void> {
  await stopServer();
  for (const pid of liveGroups) killGroup(pid, "SIGKILL");
  if (dropDatabase) await dropDatabase().catch((error: unknown) => console.error("could not drop the e2e database:", error));
  rmSync(workDir, { recursive: true, force: true });
}

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    void cleanup().finally(() => process.exit(130));
  });
}

async function main(): Promise<number> {
  // E2E_PORT pins the port (shared machines hand out port ranges); otherwise any free one.
  const port = process.env.E2E_PORT ? Number(process.env.E2E_PORT) : await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: "production",
    NEXT_TELEMETRY_DISABLED: "1",
    APP_URL: baseUrl,
    AUTH_SECRET: randomBytes(32).toString("base64url"),
    PGLITE_DIR: join(workDir, "pglite"),
    LOG_LEVEL: process.env.LOG_LEVEL ?? "warn",
  };
  delete env.DATABASE_URL;
  if (process.env.TEST_DATABASE_URL) {
    env.DATABASE_URL = await createPostgresDatabase(process.env.TEST_DATABASE_URL);
    console.log("e2e: using a fresh PostgreSQL database");
  } else {
    console.log(`e2e: using a fresh PGlite database in ${env.PGLITE_DIR}`);
  }

  if (process.env.SKIP_BUILD !== "1") {
    console.log("e2e: next build");
    // The build gets its own embedded database: nothing it opens may hold the server's PGlite lock.
    const code = await run(process.execPath, [NEXT_BIN, "build"], { ...env, PGLITE_DIR: join(workDir, "build-pglite") });
    if (code !== 0) {
      console.error(`e2e: next build failed (exit ${code})`);
      return code;
    }
  }

  console.log(`e2e: next start on ${baseUrl}`);
  const log = createWriteStream(serverLog);
  server = spawn(process.execPath, [NEXT_BIN, "start", "-p", String(port), "-H", "127.0.0.1"], {
    cwd: ROOT,
    env: { ...env, PORT: String(port) },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  server.stdout?.pipe(log);
  server.stderr?.pipe(log);
  await waitForReady(baseUrl);

  // Extra arguments pick test files: `npm run test:e2e -- tests/e2e/sign-in.e2e.test.ts`.
  const code = await run(process.execPath, [VITEST_BIN, "run", "--config", "vitest.e2e.config.ts", ...process.argv.slice(2)], {
    ...process.env,
    E2E_BASE_URL: baseUrl,
  });
  if (code !== 0) printServerLog();
  return code;
}

function printServerLog(): void {
  try {
    const lines = readFileSync(serverLog, "utf8").trimEnd().split("\n");
    console.error(`\ne2e: last lines of the server log:\n${lines.slice(-60).join("\n")}`);
  } catch {
    // No log was written.
  }
}

let exitCode = 1;
try {
  exitCode = await main();
} catch (error) {
  console.error("e2e:", error instanceof Error ? error.message : error);
  printServerLog();
  exitCode = 1;
} finally {
  await cleanup();
}
process.exit(exitCode);
