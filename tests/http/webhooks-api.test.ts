import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { and, eq, sql } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { z } from "zod";
import { jobs, webhookDeliveries, webhookEndpoints } from "@/db/schema";
import { setEnvForTests } from "@/lib/env";
import { createJobRegistry } from "@/lib/jobs/create-job-registry";
import { runDueJobs } from "@/lib/job-runner/run-due-jobs";
import { deliverWebhookJob } from "@/lib/webhooks/deliver-webhook-job";
import { WEBHOOK_EVENT_SCHEMAS } from "@/lib/webhooks/event-types";
import { callApi, tokenFor } from "../helpers/api";
import { createTestDb, type TestDb } from "../helpers/db";
import { createUser, loadDemoWorld, type DemoWorld } from "../helpers/fixtures";
import { createSignerPackage, pngDataUrl } from "../helpers/signing-fixtures";
import { startWebhookReceiver } from "../helpers/webhook-receiver";

const Endpoint = z.strictObject({
  id: z.uuid(),
  organizationId: z.number().int(),
  url: z.string(),
  description: z.string(),
  eventTypes: z.array(z.string()),
  status: z.enum(["active", "paused", "disabled"]),
  disabledReason: z.string().nullable(),
  previousSecretExpiresAt: z.iso.datetime().nullable(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});
const EndpointWithSecret = Endpoint.extend({ secret: z.string().regex(/^whsec_[A-Za-z0-9+/=]{40,}$/) });
const Delivery = z.strictObject({
  id: z.uuid(),
  eventId: z.uuid(),
  eventType: z.string(),
  status: z.enum(["pending", "succeeded", "failed", "cancelled"]),
  nextAttemptAt: z.iso.datetime().nullable(),
  createdAt: z.iso.datetime(),
  attempts: z.array(
    z.strictObject({
      attempt: z.number().int(),
      statusCode: z.number().int().nullable(),
      error: z.string().nullable(),
      durationMs: z.number().int(),
      responseBody: z.string().nullable(),
      at: z.iso.datetime(),
    }),
  ),
});
const DeliveryPage = z.strictObject({ data: z.array(Delivery), nextCursor: z.string().nullable() });

const OWNER = "owner@demo.local";
const OTHER_ADMIN = "admin@other-mortgage.test";
const registry = createJobRegistry([deliverWebhookJob]);

let testDb: TestDb;
let world: DemoWorld;
let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;

beforeAll(async () => {
  testDb = await createTestDb();
  world = await loadDemoWorld(testDb.db);
  await createUser(testDb.db, OTHER_ADMIN, [{ role: "org_admin", organizationId: world.tulsa.organizationId }]);
  receiver = await startWebhookReceiver();
  setEnvForTests({ WEBHOOKS_ALLOW_LOOPBACK: "1" });
});
afterEach(() => {
  receiver.received.length = 0;
  receiver.respond(200, "ok");
  setEnvForTests({ WEBHOOKS_ALLOW_LOOPBACK: "1" });
});
afterAll(async () => {
  setEnvForTests({});
  await receiver.close();
  await testDb.cleanup();
});

async function api(email: string, path: string, init: { method?: string; json?: unknown } = {}) {
  return callApi(path, { ...init, token: await tokenFor(email) });
}

async function createEndpoint(json: Record<string, unknown> = {}) {
  const res = await api(OWNER, "/v1/workspace/webhooks", { json: { url: receiver.url, description: "LOS", ...json } });
  expect(res.status, res.text).toBe(201);
  return EndpointWithSecret.parse(res.body);
}

/** Runs every due delivery job, as the local worker would. */
async function runDeliveries() {
  return runDueJobs(testDb.db, { workerId: "webhooks-test", registry, limit: 50 });
}

/** Makes the queued retries due now, instead of waiting out the backoff. */
async function fastForwardRetries() {
  await testDb.db.update(jobs).set({ runAt: sql`now()` }).where(and(eq(jobs.name, "deliver-webhook"), eq(jobs.status, "queued")));
}

function verify(secret: string, index = receiver.received.length - 1) {
  const message = receiver.received[index]!;
  return new Webhook(secret).verify(message.body, message.headers as Record<string, string>) as { id: string; type: string; timestamp: string; data: Record<string, unknown> };
}

async function deliveriesOf(endpointId: string, query = "") {
  const res = await api(OWNER, `/v1/workspace/webhooks/${endpointId}/deliveries${query}`);
  expect(res.status, res.text).toBe(200);
  return DeliveryPage.parse(res.body);
}

describe("endpoints", () => {
  it("creates an endpoint whose secret is shown once, and lists, edits, pauses and deletes it", async () => {
    const created = await createEndpoint({ eventTypes: ["package.sent", "package.sent", "signer.signed"] });
    expect(created.eventTypes).toEqual(["package.sent", "signer.signed"]);
    expect(created.status).toBe("active");

    const got = await api(OWNER, `/v1/workspace/webhooks/${created.id}`);
    expect(got.status).toBe(200);
    expect(Endpoint.parse(got.body).id).toBe(created.id);
    expect(got.text).not.toContain(created.secret);
    const list = await api(OWNER, "/v1/workspace/webhooks");
    expect(list.text).not.toContain(created.secret);
    expect(z.object({ data: z.array(Endpoint) }).parse(list.body).data.map((e) => e.id)).toContain(created.id);
    // Stored encrypted, not in clear.
    const [row] = await testDb.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, created.id));
    expect(row!.secretCiphertext).not.toContain(created.secret.slice(6));

    const paused = await api(OWNER, `/v1/workspace/webhooks/${created.id}`, { method: "PATCH", json: { status: "paused", description: "Paused LOS" } });
    expect(paused.status).toBe(200);
    expect(Endpoint.parse(paused.body)).toMatchObject({ status: "paused", description: "Paused LOS" });
    const test = await api(OWNER, `/v1/workspace/webhooks/${created.id}/test`, { method: "POST" });
    expect(test.status).toBe(409);

    const deleted = await api(OWNER, `/v1/workspace/webhooks/${created.id}`, { method: "DELETE" });
    expect(deleted.status).toBe(204);
    expect((await api(OWNER, `/v1/workspace/webhooks/${created.id}`)).status).toBe(404);
  });

  it("refuses bad input with a 400 and saves nothing", async () => {
    const before = await testDb.db.select({ n: sql<number>`count(*)::int` }).from(webhookEndpoints);
    for (const json of [{ url: "not a url" }, { url: "ftp://example.com/x" }, { url: receiver.url, eventTypes: ["package.exploded"] }, { url: "https://u:p@example.com/" }, { url: receiver.url, extra: 1 }]) {
      const res = await api(OWNER, "/v1/workspace/webhooks", { json });
      expect(res.status, JSON.stringify(json)).toBe(400);
    }
    const after = await testDb.db.select({ n: sql<number>`count(*)::int` }).from(webhookEndpoints);
    expect(after[0]!.n).toBe(before[0]!.n);
  });
});

describe("delivery", () => {
  it("delivers a test event signed the Standard Webhooks way, verified by the standardwebhooks package", async () => {
    const endpoint = await createEndpoint();
    const res = await api(OWNER, `/v1/workspace/webhooks/${endpoint.id}/test`, { method: "POST" });
    expect(res.status).toBe(202);
    const { eventId } = z.object({ eventId: z.uuid(), deliveryId: z.uuid() }).parse(res.body);
    expect((await runDeliveries()).succeeded).toBeGreaterThanOrEqual(1);

    expect(receiver.received).toHaveLength(1);
    const headers = receiver.received[0]!.headers;
    expect(headers["webhook-id"]).toBe(eventId);
    expect(Math.abs(Number(headers["webhook-timestamp"]) - Date.now() / 1000)).toBeLessThan(60);
    const payload = verify(endpoint.secret);
    expect(payload).toMatchObject({ id: eventId, type: "webhook.test", data: { endpointId: endpoint.id, organizationId: world.austin.organizationId } });
    // Another secret does not verify.
    expect(() => verify(`whsec_${Buffer.alloc(32, 7).toString("base64")}`)).toThrow();

    const log = await deliveriesOf(endpoint.id);
    expect(log.data[0]).toMatchObject({ eventId, eventType: "webhook.test", status: "succeeded" });
    expect(log.data[0]!.attempts).toEqual([expect.objectContaining({ attempt: 1, statusCode: 200, error: null, responseBody: "ok" })]);
    await api(OWNER, `/v1/workspace/webhooks/${endpoint.id}`, { method: "DELETE" });
  });

  it("retries a failing receiver with growing, jittered delays, logs each attempt, and succeeds later", async () => {
    const endpoint = await createEndpoint();
    receiver.respond(500, "x".repeat(5_000));
    await api(OWNER, `/v1/workspace/webhooks/${endpoint.id}/test`, { method: "POST" });
    const firstAt = Date.now();
    await runDeliveries();
    expect(receiver.received).toHaveLength(1);

    let log = await deliveriesOf(endpoint.id);
    expect(log.data[0]!.status).toBe("pending");
    expect(log.data[0]!.attempts[0]).toMatchObject({ attempt: 1, statusCode: 500, error: "HTTP 500" });
    expect(log.data[0]!.attempts[0]!.responseBody).toHaveLength(1_024);
    // First retry after 10 s with equal jitter: between 5 and 10 s.
    const firstDelay = Date.parse(log.data[0]!.nextAttemptAt!) - firstAt;
    expect(firstDelay).toBeGreaterThanOrEqual(4_000);
    expect(firstDelay).toBeLessThanOrEqual(11_000);
    // Not due yet: running the worker now sends nothing.
    await runDeliveries();
    expect(receiver.received).toHaveLength(1);

    await fastForwardRetries();
    const secondAt = Date.now();
    await runDeliveries();
    expect(receiver.received).toHaveLength(2);
    log = await deliveriesOf(endpoint.id);
    const secondDelay = Date.parse(log.data[0]!.nextAttemptAt!) - secondAt;
    expect(secondDelay).toBeGreaterThanOrEqual(14_000);
    expect(secondDelay).toBeLessThanOrEqual(31_000);
    // Same message id on every retry.
    expect(receiver.received[1]!.headers["webhook-id"]).toBe(receiver.received[0]!.headers["webhook-id"]);

    receiver.respond(204);
    await fastForwardRetries();
    await runDeliveries();
    log = await deliveriesOf(endpoint.id);
    expect(log.data[0]!.status).toBe("succeeded");
    expect(log.data[0]!.nextAttemptAt).toBeNull();
    expect(log.data[0]!.attempts.map((a) => a.statusCode)).toEqual([500, 500, 204]);
    expect(verify(endpoint.secret).type).toBe("webhook.test");

    // Filters: nothing failed, one succeeded.
    expect((await deliveriesOf(endpoint.id, "?status=failed")).data).toHaveLength(0);
    expect((await deliveriesOf(endpoint.id, "?status=succeeded&eventType=webhook.test")).data).toHaveLength(1);
    expect((await deliveriesOf(endpoint.id, `?since=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`)).data).toHaveLength(0);
    await api(OWNER, `/v1/workspace/webhooks/${endpoint.id}`, { method: "DELETE" });
  });

  it("disables the endpoint when it answers 410 Gone, and sends it nothing more", async () => {
    const endpoint = await createEndpoint();
    receiver.respond(410, "gone");
    await api(OWNER, `/v1/workspace/webhooks/${endpoint.id}/test`, { method: "POST" });
    await runDeliveries();
    const got = Endpoint.parse((await api(OWNER, `/v1/workspace/webhooks/${endpoint.id}`)).body);
    expect(got.status).toBe("disabled");
    expect(got.disabledReason).toMatch(/410/);
    expect((await deliveriesOf(endpoint.id)).data[0]!.status).toBe("failed");
    expect((await api(OWNER, `/v1/workspace/webhooks/${endpoint.id}/test`, { method: "POST" })).status).toBe(409);

    // Resumed, it receives again.
    receiver.respond(200, "ok");
    const resumed = await api(OWNER, `/v1/workspace/webhooks/${endpoint.id}`, { method: "PATCH", json: { status: "active" } });
    expect(Endpoint.parse(resumed.body)).toMatchObject({ status: "active", disabledReason: null });
    await api(OWNER, `/v1/workspace/webhooks/${endpoint.id}`, { method: "DELETE" });
  });

  it("disables an endpoint that has failed for days and emails the organization's admins", async () => {
    const endpoint = await createEndpoint();
    receiver.respond(503, "down");
    await testDb.db.update(webhookEndpoints).set({ failingSince: new Date(Date.now() - 4 * 86_400_000) }).where(eq(webhookEndpoints.id, endpoint.id));
    await api(OWNER, `/v1/workspace/webhooks/${endpoint.id}/test`, { method: "POST" });
    await runDeliveries();
    const got = Endpoint.parse((await api(OWNER, `/v1/workspace/webhooks/${endpoint.id}`)).body);
    expect(got.status).toBe("disabled");
    expect(got.disabledReason).toMatch(/failed for 3 days/);
    const mails = await testDb.db.select().from(jobs).where(eq(jobs.name, "send-email"));
    // Signer emails are queued as ids and rendered when sent; the admins' notice is a plain message.
    const mail = mails.map((j) => j.payload as { to?: string; subject?: string; text?: string }).find((m) => m.subject?.startsWith("Webhook endpoint disabled"));
    expect(mail).toMatchObject({ to: OWNER });
    expect(mail!.text).toContain(receiver.url);
    expect(mail!.text).not.toContain(endpoint.secret);
    await api(OWNER, `/v1/workspace/webhooks/${endpoint.id}`, { method: "DELETE" });
  });

  it("gives up after the last attempt, about three days after the first", async () => {
    const { WEBHOOK_RETRY_DELAYS_MS, WEBHOOK_MAX_ATTEMPTS } = await import("@/lib/webhooks/webhook-backoff");
    const total = WEBHOOK_RETRY_DELAYS_MS.reduce((a, b) => a + b, 0);
    expect(total).toBeGreaterThan(2.5 * 86_400_000);
    expect(total).toBeLessThan(4 * 86_400_000);
    const endpoint = await createEndpoint();
    receiver.respond(500);
    await api(OWNER, `/v1/workspace/webhooks/${endpoint.id}/test`, { method: "POST" });
    for (let i = 0; i < WEBHOOK_MAX_ATTEMPTS; i++) {
      await fastForwardRetries();
      await runDeliveries();
    }
    expect(receiver.received).toHaveLength(WEBHOOK_MAX_ATTEMPTS);
    const log = await deliveriesOf(endpoint.id);
    expect(log.data[0]!.status).toBe("failed");
    expect(log.data[0]!.attempts).toHaveLength(WEBHOOK_MAX_ATTEMPTS);
    await fastForwardRetries();
    await runDeliveries();
    expect(receiver.received).toHaveLength(WEBHOOK_MAX_ATTEMPTS);
    await api(OWNER, `/v1/workspace/webhooks/${endpoint.id}`, { method: "DELETE" });
  });
});

describe("at least once, not more", () => {
  it("running an attempt again after it was logged sends nothing; one claimed but never logged is taken over", async () => {
    const { deliverWebhook } = await import("@/lib/webhooks/deliver-webhook");
    const endpoint = await createEndpoint();
    const { deliveryId } = z.object({ deliveryId: z.uuid() }).parse((await api(OWNER, `/v1/workspace/webhooks/${endpoint.id}/test`, { method: "POST" })).body);
    receiver.respond(500);
    expect(await deliverWebhook(testDb.db, { deliveryId, attempt: 1 })).toBe("retrying");
    expect(await deliverWebhook(testDb.db, { deliveryId, attempt: 1 })).toBe("skipped");
    expect(receiver.received).toHaveLength(1);
    // A worker claimed attempt 2 and died before logging it: the retried job delivers it.
    await testDb.db.update(webhookDeliveries).set({ attempts: 2 }).where(eq(webhookDeliveries.id, deliveryId));
    receiver.respond(200);
    expect(await deliverWebhook(testDb.db, { deliveryId, attempt: 2 })).toBe("succeeded");
    expect(await deliverWebhook(testDb.db, { deliveryId, attempt: 3 })).toBe("skipped");
    expect(receiver.received).toHaveLength(2);
    await api(OWNER, `/v1/workspace/webhooks/${endpoint.id}`, { method: "DELETE" });
  });
});

describe("rotation", () => {
  it("signs with both secrets during the overlap, then with the new one only", async () => {
    const endpoint = await createEndpoint();
    const rotated = await api(OWNER, `/v1/workspace/webhooks/${endpoint.id}/rotate-secret`, { json: { overlapHours: 24 } });
    expect(rotated.status).toBe(200);
    const { secret: newSecret, previousSecretExpiresAt } = EndpointWithSecret.parse(rotated.body);
    expect(newSecret).not.toBe(endpoint.secret);
    expect(Date.parse(previousSecretExpiresAt!) - Date.now()).toBeGreaterThan(23 * 3600_000);

    await api(OWNER, `/v1/workspace/webhooks/${endpoint.id}/test`, { method: "POST" });
    await runDeliveries();
    expect(String(receiver.received[0]!.headers["webhook-signature"]).split(" ")).toHaveLength(2);
    expect(verify(newSecret).type).toBe("webhook.test");
    expect(verify(endpoint.secret).type).toBe("webhook.test");

    // The overlap is over: only the new secret signs.
    await testDb.db.update(webhookEndpoints).set({ previousSecretExpiresAt: new Date(Date.now() - 1000) }).where(eq(webhookEndpoints.id, endpoint.id));
    await api(OWNER, `/v1/workspace/webhooks/${endpoint.id}/test`, { method: "POST" });
    await runDeliveries();
    expect(String(receiver.received[1]!.headers["webhook-signature"]).split(" ")).toHaveLength(1);
    expect(verify(newSecret, 1).type).toBe("webhook.test");
    expect(() => verify(endpoint.secret, 1)).toThrow();
    await api(OWNER, `/v1/workspace/webhooks/${endpoint.id}`, { method: "DELETE" });
  });
});

describe("replay", () => {
  it("replays one event, and every event since a time, with the original webhook-id", async () => {
    const endpoint = await createEndpoint();
    // From now: the demo data's own events (seconds ago when this file runs fast) are not in the window.
    const since = new Date().toISOString();
    const first = z.object({ eventId: z.uuid() }).parse((await api(OWNER, `/v1/workspace/webhooks/${endpoint.id}/test`, { method: "POST" })).body);
    await runDeliveries();
    expect(receiver.received).toHaveLength(1);

    const one = await api(OWNER, `/v1/workspace/webhooks/${endpoint.id}/replay`, { json: { eventId: first.eventId } });
    expect(one.status).toBe(202);
    expect(one.body).toEqual({ replayed: 1, truncated: false });
    await runDeliveries();
    expect(receiver.received).toHaveLength(2);
    expect(verify(endpoint.secret, 1).id).toBe(first.eventId);
    expect(receiver.received[1]!.headers["webhook-id"]).toBe(first.eventId);

    // "Since" replays the endpoint's event types; test events are not among them.
    const all = await api(OWNER, `/v1/workspace/webhooks/${endpoint.id}/replay`, { json: { since } });
    expect(all.status).toBe(202);
    expect(z.object({ replayed: z.number() }).parse(all.body).replayed).toBe(0);

    expect((await api(OWNER, `/v1/workspace/webhooks/${endpoint.id}/replay`, { json: { eventId: "0192f0c4-0000-7000-8000-000000000000" } })).status).toBe(404);
    expect((await api(OWNER, `/v1/workspace/webhooks/${endpoint.id}/replay`, { json: { since: "yesterday" } })).status).toBe(400);
    await api(OWNER, `/v1/workspace/webhooks/${endpoint.id}`, { method: "DELETE" });
  });
});

describe("tenancy", () => {
  it("another organization's admin, or a manager, cannot see, change, test or replay an endpoint", async () => {
    const endpoint = await createEndpoint();
    const { eventId } = z.object({ eventId: z.uuid() }).parse((await api(OWNER, `/v1/workspace/webhooks/${endpoint.id}/test`, { method: "POST" })).body);
    await runDeliveries();

    const otherList = await api(OTHER_ADMIN, "/v1/workspace/webhooks");
    expect(otherList.status).toBe(200);
    expect(otherList.text).not.toContain(endpoint.id);
    for (const [method, path, json] of [
      ["GET", "", undefined],
      ["PATCH", "", { status: "paused" }],
      ["DELETE", "", undefined],
      ["POST", "/test", undefined],
      ["POST", "/rotate-secret", {}],
      ["GET", "/deliveries", undefined],
      ["POST", "/replay", { eventId }],
    ] as const) {
      const res = await api(OTHER_ADMIN, `/v1/workspace/webhooks/${endpoint.id}${path}`, { method, json });
      expect(res.status, `${method} ${path}`).toBe(404);
      const manager = await api("manager@demo.local", `/v1/workspace/webhooks/${endpoint.id}${path}`, { method, json });
      expect(manager.status, `manager ${method} ${path}`).toBe(403);
    }
    // The other organization's own endpoint cannot replay this organization's event either.
    const theirs = await api(OTHER_ADMIN, "/v1/workspace/webhooks", { json: { url: receiver.url } });
    expect(theirs.status).toBe(201);
    const replay = await api(OTHER_ADMIN, `/v1/workspace/webhooks/${EndpointWithSecret.parse(theirs.body).id}/replay`, { json: { eventId } });
    expect(replay.status).toBe(404);
    expect(Endpoint.parse((await api(OWNER, `/v1/workspace/webhooks/${endpoint.id}`)).body).status).toBe("active");
    await api(OWNER, `/v1/workspace/webhooks/${endpoint.id}`, { method: "DELETE" });
    await api(OTHER_ADMIN, `/v1/workspace/webhooks/${EndpointWithSecret.parse(theirs.body).id}`, { method: "DELETE" });
  });
});

describe("server-side request forgery", () => {
  it("refuses loopback, private, link-local and metadata URLs when the endpoint is saved", async () => {
    setEnvForTests({});
    for (const url of [
      "http://127.0.0.1:4131/hooks",
      "http://localhost:4131/hooks",
      "http://[::1]/hooks",
      "http://[::ffff:127.0.0.1]/hooks",
      "http://[::ffff:7f00:1]/hooks",
      "http://10.1.2.3/hooks",
      "http://172.16.0.1/hooks",
      "http://192.168.1.1/hooks",
      "http://169.254.169.254/latest/meta-data",
      "http://[fd00:ec2::254]/",
      "http://[fe80::1]/hooks",
      "http://[fc00::1]/hooks",
      "http://[::ffff:10.0.0.1]/hooks",
      "http://0.0.0.0/hooks",
    ]) {
      const res = await api(OWNER, "/v1/workspace/webhooks", { json: { url } });
      expect(res.status, url).toBe(400);
      expect(z.object({ error: z.string() }).parse(res.body).error).toMatch(/address/);
    }
  });

  it("requires https in production", async () => {
    setEnvForTests({ NODE_ENV: "production", AUTH_SECRET: "x".repeat(40), APP_URL: "http://localhost:3131" });
    const res = await api(OWNER, "/v1/workspace/webhooks", { json: { url: "http://hooks.example.com/x" } });
    expect(res.status).toBe(400);
    expect(res.text).toContain("https");
  });

  it("resolves the host at delivery time and refuses an address that became loopback, without sending anything", async () => {
    // Saved while loopback was allowed (a hostname that resolves to 127.0.0.1 / ::1), delivered after it no longer is.
    const endpoint = await createEndpoint({ url: `http://localhost:${receiver.port}/hooks` });
    setEnvForTests({});
    await api(OWNER, `/v1/workspace/webhooks/${endpoint.id}/test`, { method: "POST" });
    await runDeliveries();
    expect(receiver.received).toHaveLength(0);
    const log = await deliveriesOf(endpoint.id);
    expect(log.data[0]!.attempts[0]).toMatchObject({ statusCode: null, error: expect.stringMatching(/^Refused: .*loopback/) });
    await testDb.db.delete(webhookDeliveries).where(eq(webhookDeliveries.endpointId, endpoint.id));
    await api(OWNER, `/v1/workspace/webhooks/${endpoint.id}`, { method: "DELETE" });
  });

  it("does not follow redirects", async () => {
    const endpoint = await createEndpoint();
    receiver.respond(302, "");
    await api(OWNER, `/v1/workspace/webhooks/${endpoint.id}/test`, { method: "POST" });
    await runDeliveries();
    expect(receiver.received).toHaveLength(1);
    expect((await deliveriesOf(endpoint.id)).data[0]!.attempts[0]).toMatchObject({ statusCode: 302, error: "HTTP 302" });
    await api(OWNER, `/v1/workspace/webhooks/${endpoint.id}`, { method: "DELETE" });
  });
});

describe("domain events", () => {
  it("a package created, sent and signed reaches a subscribed endpoint as verified events carrying ids only", async () => {
    const endpoint = await createEndpoint({ eventTypes: ["package.created", "package.sent", "signer.signed", "package.completed"] });
    const signerEmail = "webhook.signer@example.test";
    const fixture = await createSignerPackage(testDb.db, { location: world.austin, signers: [{ email: signerEmail }] });
    // Another organization's package never reaches this endpoint.
    await createSignerPackage(testDb.db, { location: world.tulsa, signers: [{ email: "tulsa.signer@example.test" }] });
    const signed = await callApi(`/v1/signing/signer/signings/${fixture.id}/documents/${fixture.documents[0]!.id}/esignatures`, {
      method: "POST",
      token: await tokenFor(signerEmail),
      json: { kind: "drawn", imageDataUrl: pngDataUrl(), consent: true },
    });
    expect(signed.status, signed.text).toBe(201);
    const eSignatureId = z.object({ id: z.uuid() }).parse(signed.body).id;
    await runDeliveries();

    const events = receiver.received.map((_, i) => verify(endpoint.secret, i));
    const byType = new Map(events.map((e) => [e.type, e]));
    expect([...byType.keys()].sort()).toEqual(["package.completed", "package.created", "package.sent", "signer.signed"]);
    const base = { packageId: fixture.id, organizationId: world.austin.organizationId };
    expect(byType.get("package.created")!.data).toEqual(base);
    expect(byType.get("package.sent")!.data).toEqual(base);
    expect(byType.get("signer.signed")!.data).toEqual({ ...base, signerId: fixture.signers[0]!.id, documentId: fixture.documents[0]!.id, eSignatureId });
    for (const event of events) {
      expect(WEBHOOK_EVENT_SCHEMAS[event.type as keyof typeof WEBHOOK_EVENT_SCHEMAS].safeParse(event.data).success).toBe(true);
      expect(receiver.received.find((r) => r.headers["webhook-id"] === event.id)).toBeDefined();
      expect(Date.parse(event.timestamp)).toBeGreaterThan(Date.now() - 60_000);
    }
    expect(JSON.stringify(receiver.received.map((r) => r.body))).not.toMatch(/access|token|sha256|data:image/i);
    await api(OWNER, `/v1/workspace/webhooks/${endpoint.id}`, { method: "DELETE" });
  });
});
