import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { and, asc, eq, sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { jobs, vaultDeliveries } from "@/db/schema";
import { setEnvForTests } from "@/lib/env";
import { defineJob } from "@/lib/jobs/define-job";
import { createJobRegistry } from "@/lib/jobs/create-job-registry";
import { runDueJobs } from "@/lib/job-runner/run-due-jobs";
import { deliverVaultEvent } from "@/lib/vault/deliver-vault-event";
import { deliverVaultEventJob } from "@/lib/vault/deliver-vault-event-job";
import { callApi, tokenFor } from "../helpers/api";
import { createTestDb, type TestDb } from "../helpers/db";
import { loadDemoWorld, type DemoWorld } from "../helpers/fixtures";
import { createSignerPackage, pngDataUrl } from "../helpers/signing-fixtures";

type Mode = "ok" | "fail" | "hang";
type Received = { headers: IncomingHttpHeaders; body: string; method: string; url: string };

/** A vault on 127.0.0.1 that answers each request with the next planned mode (then "ok"). */
class FakeVault {
  received: Received[] = [];
  plan: Mode[] = [];
  private server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      this.received.push({ headers: req.headers, body: Buffer.concat(chunks).toString("utf8"), method: req.method!, url: req.url! });
      this.answer(this.plan.shift() ?? "ok", res);
    });
  });

  private answer(mode: Mode, res: ServerResponse) {
    if (mode === "hang") return; // never answers: the sender's timeout must fire
    res.writeHead(mode === "ok" ? 202 : 500, { "content-type": "application/json" });
    res.end(JSON.stringify({ ok: mode === "ok" }));
  }

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, "127.0.0.1", resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hooks/vault`;
  }

  async stop() {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

const SECRET = "vault-secret-do-not-log-8c1f";
const FAST_TIMEOUT_MS = 400;
// The production job with a short timeout, so the "vault hangs" case does not wait 10 s.
const fastRegistry = createJobRegistry([
  defineJob({
    name: deliverVaultEventJob.name,
    schema: deliverVaultEventJob.schema,
    maxAttempts: deliverVaultEventJob.maxAttempts,
    handler: async (ctx, payload) => {
      await deliverVaultEvent(ctx.db, { ...payload, timeoutMs: FAST_TIMEOUT_MS });
    },
  }),
]);

let testDb: TestDb;
let world: DemoWorld;
const vault = new FakeVault();
let vaultUrl: string;
let counter = 0;

beforeAll(async () => {
  testDb = await createTestDb();
  world = await loadDemoWorld(testDb.db);
  vaultUrl = await vault.start();
});
afterAll(async () => {
  setEnvForTests({ VAULT_WEBHOOK_URL: undefined, VAULT_WEBHOOK_SECRET: undefined, LOG_LEVEL: "silent" });
  await vault.stop();
  await testDb.cleanup();
});
afterEach(() => {
  vault.received = [];
  vault.plan = [];
  vi.restoreAllMocks();
});

/** Signs a fresh one-signer package through the API; returns the e-signature and the package. */
async function signFresh() {
  counter += 1;
  const email = `vault-${counter}@demo.local`;
  const pkg = await createSignerPackage(testDb.db, { location: world.austin, signers: [{ email }, { email: `vault-co-${counter}@demo.local` }] });
  const res = await callApi(`/v1/signing/signer/signings/${pkg.id}/documents/${pkg.documents[0]!.id}/esignatures`, {
    method: "POST",
    token: await tokenFor(email),
    json: { kind: "drawn", imageDataUrl: pngDataUrl(), consent: true },
  });
  expect(res.status).toBe(201);
  return { eSignature: res.body as { id: string; authUserId: string }, pkg };
}

/** The job of attempt `attempt` (keyed by the e-signature id for the first, `<id>:<n>` after). */
async function vaultJob(eSignatureId: string, attempt = 1) {
  const [job] = await testDb.db
    .select()
    .from(jobs)
    .where(and(eq(jobs.name, "deliver-vault-event"), eq(jobs.idempotencyKey, attempt === 1 ? eSignatureId : `${eSignatureId}:${attempt}`)));
  return job;
}

async function makeDue(jobId: string) {
  await testDb.db.update(jobs).set({ runAt: sql`now()` }).where(eq(jobs.id, jobId));
}

async function attempts(eSignatureId: string) {
  return testDb.db.select().from(vaultDeliveries).where(eq(vaultDeliveries.eSignatureId, eSignatureId)).orderBy(asc(vaultDeliveries.attempt));
}

describe("deliver-vault-event", () => {
  it("500, then a timeout, then 2xx: retried with backoff, delivered, every attempt recorded, headers and body exact", async () => {
    setEnvForTests({ VAULT_WEBHOOK_URL: vaultUrl, VAULT_WEBHOOK_SECRET: SECRET });
    const { eSignature, pkg } = await signFresh();
    const job = (await vaultJob(eSignature.id))!;
    expect(job.status).toBe("queued");
    vault.plan = ["fail", "hang", "ok"];

    // Each failed attempt schedules the next as its own job, after a growing, jittered delay.
    const startedAt = Date.now();
    expect(await runDueJobs(testDb.db, { workerId: "vault-test", registry: fastRegistry })).toMatchObject({ claimed: 1, succeeded: 1 });
    const second = (await vaultJob(eSignature.id, 2))!;
    expect(second).toMatchObject({ status: "queued", attempts: 0 });
    expect(second.runAt.getTime()).toBeGreaterThanOrEqual(startedAt + 5_000);
    expect(second.runAt.getTime()).toBeLessThanOrEqual(Date.now() + 10_000);
    expect(await runDueJobs(testDb.db, { workerId: "vault-test", registry: fastRegistry })).toMatchObject({ claimed: 0 });

    await makeDue(second.id);
    expect(await runDueJobs(testDb.db, { workerId: "vault-test", registry: fastRegistry })).toMatchObject({ claimed: 1, succeeded: 1 });
    const third = (await vaultJob(eSignature.id, 3))!;
    expect(third.runAt.getTime() - Date.now()).toBeGreaterThanOrEqual(15_000 - 2_000);
    await makeDue(third.id);
    expect(await runDueJobs(testDb.db, { workerId: "vault-test", registry: fastRegistry })).toMatchObject({ claimed: 1, succeeded: 1 });
    expect(await vaultJob(eSignature.id, 4)).toBeUndefined();

    const rows = await attempts(eSignature.id);
    expect(rows.map((r) => [r.attempt, r.statusCode])).toEqual([
      [1, 500],
      [2, null],
      [3, 202],
    ]);
    expect(rows[0]!.error).toBe("HTTP 500");
    expect(rows[1]!.error).toMatch(/timeout|abort/i);
    expect(rows[1]!.durationMs).toBeGreaterThanOrEqual(FAST_TIMEOUT_MS - 50);
    expect(rows[2]!.error).toBeNull();

    expect(vault.received).toHaveLength(3);
    for (const request of vault.received) {
      expect(request.method).toBe("POST");
      expect(request.url).toBe("/hooks/vault");
      expect(request.headers["content-type"]).toBe("application/json");
      expect(request.headers.authorization).toBe(`Bearer ${SECRET}`);
      expect(request.headers["idempotency-key"]).toBe(eSignature.id);
      expect(JSON.parse(request.body)).toStrictEqual({
        type: "signer_document_signed",
        signingOrganizationId: String(world.austin.organizationId),
        signingId: pkg.id,
        documentId: pkg.documents[0]!.id,
        authUserId: eSignature.authUserId,
        firstESign: true,
      });
      expect(Object.keys(JSON.parse(request.body))).toHaveLength(6);
    }
  });

  it("never sends again after a 2xx, even when the job runs again", async () => {
    setEnvForTests({ VAULT_WEBHOOK_URL: vaultUrl, VAULT_WEBHOOK_SECRET: SECRET });
    const { eSignature } = await signFresh();
    const job = (await vaultJob(eSignature.id))!;
    expect(await runDueJobs(testDb.db, { workerId: "vault-test" })).toMatchObject({ succeeded: expect.any(Number) });
    expect(vault.received).toHaveLength(1);
    expect((await vaultJob(eSignature.id))!.status).toBe("succeeded");

    // A second run of the same job (a lease takeover, an Inngest replay, a manual requeue).
    await testDb.db.update(jobs).set({ status: "queued", runAt: sql`now()` }).where(eq(jobs.id, job.id));
    expect(await runDueJobs(testDb.db, { workerId: "vault-test", registry: fastRegistry })).toMatchObject({ succeeded: 1 });
    const payload = job.payload as Parameters<typeof deliverVaultEvent>[1];
    expect(await deliverVaultEvent(testDb.db, payload)).toBe("already_delivered");
    expect(vault.received).toHaveLength(1);
    expect(await attempts(eSignature.id)).toHaveLength(1);
  });

  it("sends no Authorization header without a secret", async () => {
    setEnvForTests({ VAULT_WEBHOOK_URL: vaultUrl, VAULT_WEBHOOK_SECRET: undefined });
    const { eSignature } = await signFresh();
    await runDueJobs(testDb.db, { workerId: "vault-test", registry: fastRegistry });
    expect(vault.received).toHaveLength(1);
    expect(vault.received[0]!.headers.authorization).toBeUndefined();
    expect((await attempts(eSignature.id)).map((r) => r.statusCode)).toEqual([202]);
  });

  it("skips cleanly when the URL was removed after the job was enqueued", async () => {
    setEnvForTests({ VAULT_WEBHOOK_URL: vaultUrl });
    const { eSignature } = await signFresh();
    setEnvForTests({ VAULT_WEBHOOK_URL: undefined });
    expect(await runDueJobs(testDb.db, { workerId: "vault-test", registry: fastRegistry })).toMatchObject({ succeeded: 1 });
    expect(vault.received).toHaveLength(0);
    expect(await attempts(eSignature.id)).toHaveLength(0);
  });

  it("a refused connection is a recorded, retried failure", async () => {
    setEnvForTests({ VAULT_WEBHOOK_URL: vaultUrl });
    const { eSignature } = await signFresh();
    setEnvForTests({ VAULT_WEBHOOK_URL: "http://127.0.0.1:9/closed" });
    expect(await runDueJobs(testDb.db, { workerId: "vault-test", registry: fastRegistry })).toMatchObject({ succeeded: 1 });
    const [row] = await attempts(eSignature.id);
    expect(row).toMatchObject({ attempt: 1, statusCode: null });
    expect(row!.error).toMatch(/fetch failed|ECONNREFUSED/);
    expect((await vaultJob(eSignature.id, 2))!.status).toBe("queued");
  });

  it("an attempt already recorded is not made again, and the last attempt schedules none", async () => {
    setEnvForTests({ VAULT_WEBHOOK_URL: vaultUrl });
    const { eSignature } = await signFresh();
    const payload = (await vaultJob(eSignature.id))!.payload as { eSignatureId: string; event: Parameters<typeof deliverVaultEvent>[1]["event"] };
    vault.plan = ["fail", "fail"];
    expect(await deliverVaultEvent(testDb.db, { ...payload, attempt: 1 })).toBe("retrying");
    expect(await deliverVaultEvent(testDb.db, { ...payload, attempt: 1 })).toBe("already_attempted");
    expect(vault.received).toHaveLength(1);

    // The fifteenth attempt (about three days after the first) is the last.
    expect(await deliverVaultEvent(testDb.db, { ...payload, attempt: 15 })).toBe("failed");
    expect(await vaultJob(eSignature.id, 16)).toBeUndefined();
    expect((await attempts(eSignature.id)).map((r) => [r.attempt, r.statusCode])).toEqual([
      [1, 500],
      [15, 500],
    ]);
  });

  it("never logs the secret", async () => {
    setEnvForTests({ VAULT_WEBHOOK_URL: vaultUrl, VAULT_WEBHOOK_SECRET: SECRET, LOG_LEVEL: "debug" });
    const lines: string[] = [];
    vi.spyOn(console, "log").mockImplementation((line: unknown) => void lines.push(String(line)));
    vi.spyOn(console, "error").mockImplementation((line: unknown) => void lines.push(String(line)));
    const { eSignature } = await signFresh();
    vault.plan = ["fail"];
    await runDueJobs(testDb.db, { workerId: "vault-test", registry: fastRegistry });
    await makeDue((await vaultJob(eSignature.id, 2))!.id);
    await runDueJobs(testDb.db, { workerId: "vault-test", registry: fastRegistry });
    expect(vault.received).toHaveLength(2);
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.join("\n")).not.toContain(SECRET);
    const jobRow = (await vaultJob(eSignature.id))!;
    expect(JSON.stringify(jobRow)).not.toContain(SECRET);
    expect(JSON.stringify(await attempts(eSignature.id))).not.toContain(SECRET);
  });
});
