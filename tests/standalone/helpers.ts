// Shared by the tests in tests/standalone: the production build's standalone folder, copied with only
// the traced files into a read-only temporary folder, and server processes started from it.
import { execFileSync, spawn, spawnSync, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import postgres from "postgres";

export const REPO = process.cwd();
export const STANDALONE = join(REPO, ".next", "standalone");
export const POSTGRES = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

/**
 * Whether a standalone build is there to test. `npm test` runs before CI's `next build`, so there the
 * files skip; `npm run test:standalone` (after the build) sets STANDALONE_REQUIRED and fails instead.
 */
export function standaloneBuilt(): boolean {
  const built = existsSync(join(STANDALONE, "server.js")) && existsSync(join(REPO, ".next", "BUILD_ID"));
  if (!built && process.env.STANDALONE_REQUIRED) {
    throw new Error("STANDALONE_REQUIRED is set but there is no standalone build (.next/standalone/server.js): run `next build` first");
  }
  if (built && statSync(join(STANDALONE, "server.js")).mtimeMs + 60_000 < statSync(join(REPO, ".next", "BUILD_ID")).mtimeMs) {
    throw new Error(".next/standalone is older than .next/BUILD_ID: the last build was not a standalone build");
  }
  return built;
}

export type Copy = { root: string; app: string; bin: string; runAs: string[]; uid?: number; remove: () => void };

/**
 * `.next/standalone` + `.next/static` + `public` (nothing else of the repository) in a fresh folder,
 * made read-only. As root, the servers run as `nobody` (root ignores file modes, so only then is the
 * read-only check real). `bin` holds only `node`: no poppler, no ImageMagick, no shell tools on PATH.
 */
export function copyStandalone(options: { without?: string[] } = {}): Copy {
  // STANDALONE_TEST_WITHOUT=db/migrations,node_modules/@fontsource: delete those paths from the copy, to
  // see the tests fail the way a missing trace would (docs/deploy.md, "Checking the trace").
  const without = [...(options.without ?? []), ...(process.env.STANDALONE_TEST_WITHOUT?.split(",").filter(Boolean) ?? [])];
  const root = mkdtempSync(join(tmpdir(), "csig-standalone-"));
  const app = join(root, "app");
  cpSync(STANDALONE, app, { recursive: true, verbatimSymlinks: true });
  cpSync(join(REPO, ".next", "static"), join(app, ".next", "static"), { recursive: true });
  if (existsSync(join(REPO, "public"))) cpSync(join(REPO, "public"), join(app, "public"), { recursive: true });
  for (const path of without) rmSync(join(app, path), { recursive: true, force: true });
  const bin = join(root, "bin");
  mkdirSync(bin);
  symlinkSync(process.execPath, join(bin, "node"));
  execFileSync("chmod", ["-R", "a-w", app]);
  chmodSync(root, 0o755);
  const root_ = process.getuid?.() === 0;
  const id = root_ ? spawnSync("id", ["-u", "nobody"], { encoding: "utf8" }) : undefined;
  const nobody = id?.status === 0;
  const runAs = nobody ? ["/usr/bin/setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups", "--"] : [];
  if (root_ && !nobody) throw new Error("running as root without a `nobody` user: the read-only check would not be real");
  return {
    root,
    app,
    bin,
    runAs,
    uid: nobody ? Number(id!.stdout.trim()) : undefined,
    remove: () => {
      execFileSync("chmod", ["-R", "u+w", root]);
      rmSync(root, { recursive: true, force: true });
    },
  };
}

export type Server = { child: ChildProcess; base: string; output: () => string; startedAt: number; stop: () => Promise<void> };

/**
 * `node server.js` in the copy (Next's standalone server), with a minimal environment. `nodeArgs` go
 * before `server.js` (the simulated host's `--require` preload); `reportPipe` opens file descriptor 3
 * as a pipe the parent reads (`child.stdio[3]`).
 */
export function startStandalone(copy: Copy, port: number, env: Record<string, string>, options: { nodeArgs?: string[]; reportPipe?: boolean } = {}): Server {
  const base = `http://127.0.0.1:${port}`;
  const command = [...copy.runAs, join(copy.bin, "node"), ...(options.nodeArgs ?? []), "server.js"];
  const startedAt = performance.now();
  const child = spawn(command[0]!, command.slice(1), {
    cwd: copy.app,
    env: {
      PATH: copy.bin,
      HOME: copy.root,
      NODE_ENV: "production",
      NEXT_TELEMETRY_DISABLED: "1",
      HOSTNAME: "127.0.0.1",
      PORT: String(port),
      APP_URL: base,
      LOG_LEVEL: "warn",
      REALTIME_URL: "memory:",
      // The embedded database's directory (also where a development sealing key would be written): inside
      // the read-only copy, so anything that tries to write there fails.
      PGLITE_DIR: join(copy.app, ".data", "pglite"),
      ...env,
    },
    stdio: options.reportPipe ? ["ignore", "pipe", "pipe", "pipe"] : ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  return {
    child,
    base,
    output: () => output,
    startedAt,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** Polls `path` until it answers `status`; the time from spawn, in ms. */
export async function waitFor(server: Server, path: string, status = 200, timeoutMs = 90_000): Promise<number> {
  const until = Date.now() + timeoutMs;
  let last = "";
  while (Date.now() < until) {
    if (server.child.exitCode !== null) throw new Error(`the server exited (${server.child.exitCode}):\n${server.output()}`);
    try {
      const response = await fetch(`${server.base}${path}`, { signal: AbortSignal.timeout(5_000) });
      last = `${response.status} ${await response.text()}`;
      if (response.status === status) return performance.now() - server.startedAt;
    } catch (error) {
      last = (error as Error).message;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`${path} did not answer ${status} within ${timeoutMs} ms (last: ${last}):\n${server.output()}`);
}

export type Database = { url: string; drop: () => Promise<void> };

/** A fresh, empty PostgreSQL database, or undefined when the server does not answer. */
export async function freshDatabase(prefix: string): Promise<Database | undefined> {
  const name = `${prefix}_${randomBytes(6).toString("hex")}`;
  const admin = postgres(POSTGRES, { max: 1, onnotice: () => {}, connect_timeout: 3 });
  try {
    await admin.unsafe(`create database ${name}`);
  } catch (error) {
    if (process.env.STANDALONE_REQUIRED) throw error;
    return undefined;
  } finally {
    await admin.end();
  }
  const url = new URL(POSTGRES);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const sql = postgres(POSTGRES, { max: 1, onnotice: () => {} });
      await sql.unsafe(`drop database if exists ${name} with (force)`);
      await sql.end();
    },
  };
}
