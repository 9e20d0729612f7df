import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { createServer } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import postgres from "postgres";
import { migrateDb, openDb, type DbHandle } from "@/db/client";
import { tokenFor } from "../helpers/api";
import { loadDemoWorld, type DemoWorld } from "../helpers/fixtures";
import { readSse } from "../helpers/sse";

// Two standalone core-api processes share one PostgreSQL database and one Redis: a comment created
// through one must reach an SSE subscriber of the other. PGlite is single-process, so this test
// always uses the PostgreSQL server (TEST_DATABASE_URL, or the local one).
const SERVER_URL = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const REDIS_URL = "redis://127.0.0.1:6379";

let databaseUrl: string;
let databaseName: string;
let handle: DbHandle;
let world: DemoWorld;
const processes: ChildProcess[] = [];
let ports: number[] = [];

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on("error", reject);
  });
}

async function startApi(port: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, ["--import", "tsx", "scripts/start-api.ts"], {
    cwd: process.cwd(),
    env: {
      ...process.env,
      NODE_ENV: "test",
      DATABASE_URL: databaseUrl,
      API_PORT: String(port),
      REALTIME_URL: REDIS_URL,
      REALTIME_HEARTBEAT_MS: "500",
      LOG_LEVEL: "warn",
      JOBS_POLL_INTERVAL_MS: "60000",
    },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  processes.push(child);
  const deadline = Date.now() + 45_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`core-api on ${port} exited: ${stderr}`);
    try {
      if ((await fetch(`http://127.0.0.1:${port}/health`)).ok) return child;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`core-api on ${port} did not start: ${stderr}`);
}

beforeAll(async () => {
  databaseName = `csig_sse_${randomBytes(6).toString("hex")}`;
  const admin = postgres(SERVER_URL, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${databaseName}`);
  await admin.end();
  const url = new URL(SERVER_URL);
  url.pathname = `/${databaseName}`;
  databaseUrl = url.toString();
  handle = await openDb({ url: databaseUrl }, { max: 2 });
  await migrateDb(handle);
  world = await loadDemoWorld(handle.db);
  ports = [await freePort(), await freePort()];
  await Promise.all(ports.map(startApi));
}, 120_000);

afterAll(async () => {
  for (const child of processes) child.kill("SIGTERM");
  await Promise.all(processes.map((child) => (child.exitCode === null ? new Promise((r) => child.once("exit", r)) : undefined)));
  await handle?.close();
  const admin = postgres(SERVER_URL, { max: 1, onnotice: () => {} });
  await admin.unsafe(`drop database if exists ${databaseName} with (force)`);
  await admin.end();
}, 60_000);

describe("comments SSE across two API processes (Redis bus)", () => {
  it("a comment created on process B reaches a subscriber on process A; edits and deletes too", async () => {
    const [a, b] = ports.map((p) => `http://127.0.0.1:${p}`) as [string, string];
    const manager = { authorization: `Bearer ${await tokenFor("manager@demo.local")}`, "content-type": "application/json" };
    const owner = { authorization: `Bearer ${await tokenFor("owner@demo.local")}` };

    const created = await fetch(`${b}/v1/documents`, {
      method: "POST",
      headers: manager,
      body: JSON.stringify({ type: "certificate_of_title", title: "Two processes", locationId: world.austin.id }),
    });
    expect(created.status).toBe(201);
    const documentId = ((await created.json()) as { id: string }).id;

    const response = await fetch(`${a}/v1/documents/${documentId}/comments/stream`, { headers: owner });
    expect(response.status).toBe(200);
    const stream = readSse(response);
    try {
      await stream.next((e) => e.event === "ready", 10_000);

      const comment = await fetch(`${b}/v1/documents/${documentId}/comments`, {
        method: "POST",
        headers: manager,
        body: JSON.stringify({ body: "Hello from B, @owner@demo.local" }),
      });
      expect(comment.status).toBe(201);
      const body = (await comment.json()) as { id: string; body: string };
      const event = await stream.next((e) => e.event === "created", 10_000);
      expect(event.data).toEqual(body);

      const edited = await fetch(`${b}/v1/documents/${documentId}/comments/${body.id}`, {
        method: "PATCH",
        headers: manager,
        body: JSON.stringify({ body: "Edited on B" }),
      });
      expect(edited.status).toBe(200);
      expect(((await stream.next((e) => e.event === "updated", 10_000)).data as { body: string }).body).toBe("Edited on B");

      const deleted = await fetch(`${b}/v1/documents/${documentId}/comments/${body.id}`, { method: "DELETE", headers: manager });
      expect(deleted.status).toBe(204);
      expect((await stream.next((e) => e.event === "deleted", 10_000)).data).toEqual({ id: body.id, documentId, parentId: null });

      await stream.next((e) => e.event === "heartbeat", 5_000);
    } finally {
      await stream.close();
    }
  }, 60_000);
});
