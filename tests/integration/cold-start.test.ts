// Cold starts: a serverless process neither migrates nor starts job timers; a schema behind the release
// makes /ready answer 503 with the reason; the embedded default still migrates; production seeds no demo.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrateDb, openDb, type DbHandle } from "@/db/client";
import { setDbHandle } from "@/lib/db/process-db";
import { readMigrationStatus } from "@/db/migration-status";
import { callApi } from "../helpers/api";
import { freePort } from "../helpers/free-port";

const SERVER = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const journal = JSON.parse(readFileSync("db/migrations/meta/_journal.json", "utf8")) as { entries: { tag: string }[] };
const allTags = journal.entries.map((e) => e.tag);

describe("/ready compares the applied migrations with the release's journal", () => {
  let handle: DbHandle;
  let folder: string;

  beforeAll(async () => {
    // A database migrated by the release before the last two migrations.
    folder = mkdtempSync(join(tmpdir(), "csig-old-release-"));
    cpSync("db/migrations", folder, { recursive: true });
    const old = { ...journal, entries: journal.entries.slice(0, -2) };
    writeFileSync(join(folder, "meta/_journal.json"), JSON.stringify(old));
    handle = await openDb({ memory: true });
    const { migrate } = await import("drizzle-orm/pglite/migrator");
    await migrate(handle.db as never, { migrationsFolder: folder });
  });

  afterAll(async () => {
    setDbHandle(undefined);
    await handle.close();
    rmSync(folder, { recursive: true, force: true });
  });

  it("answers 503 naming the missing migrations and the command, then 200 once migrated", async () => {
    const status = await readMigrationStatus(handle.db);
    expect(status).toMatchObject({ current: false, missing: allTags.slice(-2) });

    setDbHandle(handle);
    const behind = await callApi("/ready");
    expect(behind.status).toBe(503);
    const reason = (behind.body as { reason: string }).reason;
    expect(reason).toContain("2 migrations are not applied");
    for (const tag of allTags.slice(-2)) expect(reason).toContain(tag);
    expect(reason).toContain("npm run db:migrate");

    await migrateDb(handle);
    const ready = await callApi("/ready");
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({ ready: true });
    expect(await readMigrationStatus(handle.db)).toEqual({ current: true, applied: allTags.at(-1) });
  });

  it("reports every migration missing on an empty database", async () => {
    const empty = await openDb({ memory: true });
    try {
      expect(await readMigrationStatus(empty.db)).toMatchObject({ current: false, missing: allTags });
    } finally {
      await empty.close();
    }
  });
});

function startApi(env: Record<string, string> & { NODE_ENV: "production" | "development" }): { child: ChildProcess; output: () => string } {
  const child = spawn(process.execPath, ["--import", "tsx", "scripts/start-api.ts"], {
    env: { PATH: process.env.PATH, LOG_LEVEL: "info", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
  return { child, output: () => output };
}

async function waitForHealth(base: string, child: ChildProcess, output: () => string): Promise<void> {
  const until = Date.now() + 150_000;
  while (Date.now() < until) {
    if (child.exitCode !== null) throw new Error(`start-api exited ${child.exitCode}:\n${output()}`);
    try {
      if ((await fetch(`${base}/health`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`start-api did not answer /health:\n${output()}`);
}

function exited(child: ChildProcess): Promise<number | null> {
  return child.exitCode !== null ? Promise.resolve(child.exitCode) : new Promise((r) => child.once("exit", (code) => r(code)));
}

describe("a serverless cold start on PostgreSQL", () => {
  const name = `csig_test_${randomBytes(6).toString("hex")}`;
  let url: string;
  let reachable = true;

  beforeAll(async () => {
    const admin = postgres(SERVER, { max: 1, onnotice: () => {}, connect_timeout: 3 });
    try {
      await admin.unsafe(`create database ${name}`);
    } catch {
      reachable = false;
    } finally {
      await admin.end();
    }
    const parsed = new URL(SERVER);
    parsed.pathname = `/${name}`;
    url = parsed.toString();
  });

  afterAll(async () => {
    if (!reachable) return;
    const admin = postgres(SERVER, { max: 1, onnotice: () => {} });
    await admin.unsafe(`drop database if exists ${name} with (force)`);
    await admin.end();
  });

  it("does not migrate nor start job timers; /ready is 503 until `npm run db:migrate`; SIGTERM exits 0", async (ctx) => {
    if (!reachable) ctx.skip();
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const { child, output } = startApi({ SERVERLESS: "1", DATABASE_URL: url, API_PORT: String(port), NODE_ENV: "production", APP_URL: "http://localhost:3000" });
    try {
      await waitForHealth(base, child, output);
      const behind = await fetch(`${base}/ready`);
      expect(behind.status).toBe(503);
      const body = (await behind.json()) as { ready: boolean; reason: string };
      expect(body.ready).toBe(false);
      expect(body.reason).toContain(`${allTags.length} migrations are not applied`);
      expect(body.reason).toContain("npm run db:migrate");

      const sql = postgres(url, { max: 1, onnotice: () => {} });
      const [row] = await sql`select to_regclass('drizzle.__drizzle_migrations') as t, to_regclass('public.jobs') as jobs`;
      await sql.end();
      expect(row).toEqual({ t: null, jobs: null });
      expect(output()).toContain("no job timers");
      expect(output()).not.toContain("job worker started");

      // The deploy step, then the same process is ready without a restart.
      const migrate = spawnSync(process.execPath, ["--import", "tsx", "scripts/db-migrate.ts"], {
        env: { PATH: process.env.PATH, NODE_ENV: "production", DATABASE_URL: url },
        encoding: "utf8",
        timeout: 60_000,
      });
      expect(migrate.status, migrate.stderr).toBe(0);
      const ready = await fetch(`${base}/ready`);
      expect(ready.status).toBe(200);
      expect(await ready.json()).toEqual({ ready: true });

      child.kill("SIGTERM");
      expect(await exited(child)).toBe(0);
    } finally {
      if (child.exitCode === null) child.kill("SIGKILL");
    }
  }, 120_000);
});

describe("the embedded default at start", () => {
  it("migrates under SERVERLESS too (one process owns it), and seeds the demo only outside production", async () => {
    for (const [nodeEnv, seeded] of [["production", false], ["development", true]] as const) {
      const dir = mkdtempSync(join(tmpdir(), "csig-boot-"));
      const port = await freePort();
      const base = `http://127.0.0.1:${port}`;
      const { child, output } = startApi({
        PGLITE_DIR: join(dir, "pglite"),
        API_PORT: String(port),
        NODE_ENV: nodeEnv,
        APP_URL: "http://localhost:3000",
        ...(nodeEnv === "production" ? { SERVERLESS: "1" } : {}),
      });
      try {
        await waitForHealth(base, child, output);
        expect((await fetch(`${base}/ready`)).status).toBe(200);
      } finally {
        child.kill("SIGTERM");
        await exited(child);
      }
      const handle = await openDb({ pgliteDir: join(dir, "pglite") });
      try {
        const { rows } = (await handle.db.execute("select count(*)::int as n from users where email like '%@demo.local'")) as unknown as { rows: { n: number }[] };
        expect(rows[0]!.n > 0, `${nodeEnv}: demo users`).toBe(seeded);
      } finally {
        await handle.close();
        rmSync(dir, { recursive: true, force: true });
      }
    }
  }, 400_000);
});
