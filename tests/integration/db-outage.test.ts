import { createServer, connect, type Server, type Socket } from "node:net";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDb, type DbHandle } from "@/db/client";
import { setDbHandle } from "@/lib/db/process-db";
import { callApi, tokenFor } from "@/tests/helpers/api";
import { createTestDb, type TestDb } from "@/tests/helpers/db";
import { loadDemoWorld, type DemoWorld } from "@/tests/helpers/fixtures";

/**
 * A TCP proxy in front of the test PostgreSQL server: `down()` closes the port and cuts every open
 * connection (the database went away), `blackhole()` accepts connections and never answers (a
 * partitioned network), `up()` forwards again on the same port.
 */
async function startProxy(target: URL) {
  const sockets = new Set<Socket>();
  let mode: "forward" | "blackhole" = "forward";
  let server: Server | undefined;
  let port = 0;
  const listen = async () => {
    server = createServer((client) => {
      sockets.add(client);
      client.on("close", () => sockets.delete(client));
      client.on("error", () => {});
      if (mode === "blackhole") return;
      const upstream = connect(Number(target.port || 5432), target.hostname);
      sockets.add(upstream);
      upstream.on("close", () => sockets.delete(upstream));
      upstream.on("error", () => client.destroy());
      client.on("error", () => upstream.destroy());
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve) => server!.listen(port, "127.0.0.1", resolve));
    port = (server!.address() as AddressInfo).port;
  };
  const cut = async () => {
    for (const socket of sockets) socket.destroy();
    sockets.clear();
  };
  await listen();
  return {
    url: () => {
      const url = new URL(target);
      url.hostname = "127.0.0.1";
      url.port = String(port);
      return url.toString();
    },
    down: async () => {
      const closed = new Promise<void>((resolve) => server!.close(() => resolve()));
      await cut();
      await closed;
    },
    blackhole: async () => {
      mode = "blackhole";
      await cut();
    },
    up: async () => {
      mode = "forward";
      if (!server?.listening) await listen();
    },
    close: async () => {
      const closed = server?.listening ? new Promise<void>((resolve) => server!.close(() => resolve())) : undefined;
      await cut();
      await closed;
    },
  };
}

const serverUrl = process.env.TEST_DATABASE_URL;
let testDb: TestDb;
let proxy: Awaited<ReturnType<typeof startProxy>>;
let handle: DbHandle;
let world: DemoWorld;
let token: string;

// Needs a PostgreSQL server to put a proxy in front of; the embedded PGlite cannot go away.
describe.skipIf(!serverUrl)("the /v1 API with the database down", () => {
  beforeAll(async () => {
    testDb = await createTestDb({ install: false });
    world = await loadDemoWorld(testDb.db);
    proxy = await startProxy(new URL(testDb.url!));
    handle = await openDb({ url: proxy.url() }, { max: 2 });
    setDbHandle(handle);
    token = await tokenFor("manager@demo.local", 3600);
  });

  afterAll(async () => {
    setDbHandle(undefined);
    await handle?.close().catch(() => {});
    await proxy?.close();
    await testDb?.cleanup();
  });

  const createSigning = () => callApi("/v1/signing/manager/signings", { method: "POST", token, json: { locationId: world.austin.id } });

  async function timed<T>(call: () => Promise<T>): Promise<{ result: T; ms: number }> {
    const started = performance.now();
    const result = await call();
    return { result, ms: performance.now() - started };
  }

  it("answers 503 JSON within a couple of seconds while it is gone, and 2xx again once it is back", async () => {
    expect((await createSigning()).status).toBe(201);

    await proxy.down();
    for (let i = 0; i < 3; i++) {
      const { result, ms } = await timed(createSigning);
      expect(result.status).toBe(503);
      expect(result.body).toEqual({ error: "The database is unavailable. Try again shortly." });
      expect(result.headers.get("retry-after")).toBe("5");
      expect(ms).toBeLessThan(2000);
    }
    const read = await callApi("/v1/signing/manager/signings", { token });
    expect(read.status).toBe(503);

    await proxy.up();
    expect((await createSigning()).status).toBe(201);
  });

  it("answers 503 within the connect timeout when the database accepts connections but never answers", async () => {
    await proxy.blackhole();
    // The first call fails on its cut connection; the next ones open connections that never answer.
    for (let i = 0; i < 3; i++) {
      const { result, ms } = await timed(createSigning);
      expect(result.status).toBe(503);
      expect(result.body).toEqual({ error: "The database is unavailable. Try again shortly." });
      expect(ms).toBeLessThan(3000);
    }

    await proxy.up();
    expect((await createSigning()).status).toBe(201);
  }, 15_000);
});
