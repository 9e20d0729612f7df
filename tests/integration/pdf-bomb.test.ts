import type { AddressInfo } from "node:net";
import { serve, type ServerType } from "@hono/node-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getApiApp } from "@/lib/api/app";
import { closePdfWorkers } from "@/lib/pdf/inspect-pdf-in-worker";
import { tokenFor } from "@/tests/helpers/api";
import { createTestDb, type TestDb } from "@/tests/helpers/db";
import { loadDemoWorld, type DemoWorld } from "@/tests/helpers/fixtures";
import { samplePdf } from "@/tests/helpers/manager";
import { pdfBomb } from "@/tests/helpers/pdf-bomb";

// The core-api fetch handler served on a real port, as `npm run start:api` serves it, so /health
// competes with the uploads for the same event loop.
let testDb: TestDb;
let world: DemoWorld;
let server: ServerType;
let base: string;
let token: string;
const bomb = pdfBomb(); // ~3 MB, inflates to 3 GiB

beforeAll(async () => {
  testDb = await createTestDb();
  world = await loadDemoWorld(testDb.db);
  token = await tokenFor("manager@demo.local", 3600);
  server = await new Promise<ServerType>((resolve) => {
    const s = serve({ fetch: getApiApp().fetch, port: 0, hostname: "127.0.0.1" }, () => resolve(s));
  });
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  await closePdfWorkers();
  await testDb.cleanup();
});

async function api(path: string, init: RequestInit & { json?: unknown } = {}): Promise<{ status: number; body: unknown }> {
  const headers = new Headers(init.headers);
  headers.set("authorization", `Bearer ${token}`);
  let body = init.body;
  if (init.json !== undefined) {
    headers.set("content-type", "application/json");
    body = JSON.stringify(init.json);
  }
  const response = await fetch(`${base}${path}`, { ...init, headers, body });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

async function draft(): Promise<string> {
  const res = await api("/v1/signing/manager/signings", { method: "POST", json: { locationId: world.austin.id } });
  expect(res.status).toBe(201);
  return (res.body as { id: string }).id;
}

const uploadTo = (signingId: string, bytes: Uint8Array) =>
  api(`/v1/signing/manager/signings/${signingId}/documents?name=bomb.pdf`, {
    method: "POST",
    headers: { "content-type": "application/pdf" },
    body: bytes as Uint8Array<ArrayBuffer>,
  });

const REFUSED = { error: expect.stringMatching(/expand to more than/) };

describe("PDFs that inflate to gigabytes", () => {
  it("refuses a package upload with 413 and a clear message, and still accepts a real PDF", async () => {
    const id = await draft();
    const refused = await uploadTo(id, bomb);
    expect(refused).toEqual({ status: 413, body: REFUSED });
    expect((await uploadTo(id, await samplePdf())).status).toBe(201);
  });

  it("refuses an inline base64 document and a chattel document file", async () => {
    const small = pdfBomb({ blocks: 30, blockMiB: 16 }); // ~0.5 MB → 480 MiB, fits the 1 MiB JSON body
    const inline = await api("/v1/signing/manager/signings", {
      method: "POST",
      json: { locationId: world.austin.id, documents: [{ name: "b.pdf", contentBase64: Buffer.from(small).toString("base64") }] },
    });
    expect(inline).toEqual({ status: 413, body: REFUSED });

    const doc = await api("/v1/documents", { method: "POST", json: { type: "bill_of_sale", title: "Bomb", locationId: world.austin.id } });
    expect(doc.status).toBe(201);
    const form = new FormData();
    form.set("file", new File([bomb as Uint8Array<ArrayBuffer>], "bomb.pdf", { type: "application/pdf" }));
    const file = await api(`/v1/documents/${(doc.body as { id: string }).id}/files`, { method: "POST", body: form });
    expect(file).toEqual({ status: 413, body: REFUSED });
  });

  it("three bombs at once: /health answers in under a second throughout and RSS grows by less than 512 MB", async () => {
    const ids = await Promise.all([draft(), draft(), draft()]);
    const rssBefore = process.memoryUsage().rss;
    let rssPeak = rssBefore;
    let slowestHealthMs = 0;
    let healthChecks = 0;
    let done = false;
    const uploads = Promise.all(ids.map((id) => uploadTo(id, bomb))).finally(() => (done = true));
    while (!done) {
      const started = performance.now();
      const health = await fetch(`${base}/health`, { signal: AbortSignal.timeout(5000) });
      expect(health.status).toBe(200);
      slowestHealthMs = Math.max(slowestHealthMs, performance.now() - started);
      healthChecks++;
      rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const results = await uploads;
    for (const result of results) expect(result).toEqual({ status: 413, body: REFUSED });
    expect(healthChecks).toBeGreaterThan(0);
    expect(slowestHealthMs).toBeLessThan(1000);
    expect(rssPeak - rssBefore).toBeLessThan(512 * 1024 * 1024);
    console.info(JSON.stringify({ healthChecks, slowestHealthMs: Math.round(slowestHealthMs), rssGrowthMB: Math.round((rssPeak - rssBefore) / 1e6) }));
  }, 60_000);
});
