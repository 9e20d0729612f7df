import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { freePort } from "../../helpers/free-port";

const ROOT = resolve(fileURLToPath(new URL("../../..", import.meta.url)));
/** The web server `npm start` runs: Next behind our body caps and peer stamp. */
const WEB_SERVER = join(ROOT, "server.mjs");

export type NextServer = { baseUrl: string; log: () => string; stop: () => Promise<void> };

/**
 * A second `next start` of the existing production build (the one `npm run test:e2e` made), on its
 * own embedded database and with extra environment: for tests of a configuration the shared server
 * does not have (e.g. Clerk). `env` receives the server's base URL, for APP_URL.
 */
export async function startNextServer(env: (baseUrl: string) => Record<string, string>): Promise<NextServer> {
  const port = Number(process.env.E2E_EXTRA_PORT ?? 0) || (await freePort());
  const baseUrl = `http://127.0.0.1:${port}`;
  const workDir = mkdtempSync(join(tmpdir(), "csig-e2e-extra-"));
  const serverEnv: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: "production",
    NEXT_TELEMETRY_DISABLED: "1",
    DATABASE_URL: "",
    PGLITE_DIR: join(workDir, "pglite"),
    AUTH_SECRET: randomBytes(32).toString("base64url"),
    LOG_LEVEL: "warn",
    APP_URL: baseUrl,
    ...env(baseUrl),
    PORT: String(port),
  };
  // A production server never seeds the demo data by itself: its own embedded database gets it here
  // (a caller that passes DATABASE_URL brings a database it has prepared).
  if (!serverEnv.DATABASE_URL) await seedEmbeddedDatabase(serverEnv.PGLITE_DIR!);
  const child: ChildProcess = spawn(process.execPath, [WEB_SERVER, "--port", String(port), "--hostname", "127.0.0.1"], {
    cwd: ROOT,
    env: serverEnv,
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const stop = async () => {
    if (child.pid && child.exitCode === null && child.signalCode === null) {
      const exited = new Promise<void>((r) => child.once("exit", () => r()));
      try {
        process.kill(-child.pid, "SIGTERM");
      } catch {
        // Already gone.
      }
      const timer = setTimeout(() => {
        try {
          process.kill(-child.pid!, "SIGKILL");
        } catch {
          // Already gone.
        }
      }, 5_000);
      await exited;
      clearTimeout(timer);
    }
    rmSync(workDir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) break;
    try {
      if ((await fetch(`${baseUrl}/ready`, { signal: AbortSignal.timeout(2_000) })).ok) return { baseUrl, log: () => output, stop };
    } catch {
      // Not listening yet.
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  await stop();
  throw new Error(`next start did not become ready:\n${output.slice(-3000)}`);
}

/** Migrates a new embedded database in `dir` and loads the demo data, as the shared server's is. */
async function seedEmbeddedDatabase(dir: string): Promise<void> {
  const { migrateDb, openDb } = await import("@/db/client");
  const { seedDemo } = await import("@/lib/seed/seed-demo");
  const handle = await openDb({ pgliteDir: dir });
  try {
    await migrateDb(handle);
    await seedDemo(handle.db);
  } finally {
    await handle.close();
  }
}
