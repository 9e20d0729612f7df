import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { SignJWT, generateKeyPair } from "jose";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { bankItems, inboundEvents } from "@/db/schema";
import { POST as exchangeRoute } from "@/app/api/bank/exchange/route";
import { GET as statusRoute } from "@/app/api/bank/status/route";
import { POST as bankWebhook } from "@/app/api/webhooks/bank/route";
import { verifyBankWebhook } from "@/lib/bank/verify-bank-webhook";
import { setEnvForTests } from "@/lib/env";
import { startFakePlaid, type FakePlaid } from "@/tests/fakes/plaid/server";
import { bankEnv, bankRequest, sessionCookieFor } from "@/tests/helpers/bank";
import { createTestDb, type TestDb } from "@/tests/helpers/db";
import { createUser } from "@/tests/helpers/fixtures";
import { drainJobs } from "@/tests/helpers/payments";
import { inRequestScope } from "@/tests/helpers/next-request-scope";

const exchange = inRequestScope(exchangeRoute);
const status = inRequestScope(statusRoute);

let testDb: TestDb;
let fake: FakePlaid;
let cookie: string;

beforeAll(async () => {
  testDb = await createTestDb();
  fake = await startFakePlaid();
  cookie = await sessionCookieFor(await createUser(testDb.db, "borrower-hook@example.com"));
});

beforeEach(() => {
  setEnvForTests(bankEnv(fake));
});

afterAll(async () => {
  setEnvForTests({});
  await fake.close();
  await testDb.cleanup();
});

function webhookRequest(body: string, jwt: string | null, header = "bank-verification"): Request {
  const headers = new Headers({ "content-type": "application/json" });
  if (jwt !== null) headers.set(header, jwt);
  return new Request("http://localhost:3000/api/webhooks/bank", { method: "POST", headers, body });
}

function itemWebhook(itemId: string, code: string, extra: Record<string, unknown> = {}, type = "ITEM"): string {
  return JSON.stringify({ webhook_type: type, webhook_code: code, item_id: itemId, environment: "sandbox", ...extra });
}

async function send(body: string, options: Parameters<FakePlaid["signWebhook"]>[1] = {}): Promise<Response> {
  return bankWebhook(webhookRequest(body, await fake.signWebhook(body, options)));
}

async function linkItem(): Promise<string> {
  const response = await exchange(bankRequest("/api/bank/exchange", { cookie, body: { public_token: fake.issuePublicToken() } }));
  return ((await response.json()) as { item_id: string }).item_id;
}

async function statusItem(itemId: string) {
  const body = (await (await status(bankRequest("/api/bank/status", { method: "GET", cookie }))).json()) as {
    connected: boolean;
    items: { item_id: string; health: string; last_webhook_code: string | null }[];
  };
  return { connected: body.connected, item: body.items.find((i) => i.item_id === itemId) };
}

describe("POST /api/webhooks/bank – verification", () => {
  const body = itemWebhook("item-x", "NEW_ACCOUNTS_AVAILABLE");

  it("accepts a valid signature under either header name", async () => {
    expect(await (await send(body)).json()).toEqual({ received: true });
    const other = itemWebhook("item-x", "WEBHOOK_UPDATE_ACKNOWLEDGED");
    const response = await bankWebhook(webhookRequest(other, await fake.signWebhook(other), "Plaid-Verification"));
    expect(response.status).toBe(200);
  });

  it("answers 401 and stores nothing for every failed verification", async () => {
    const stored = (await testDb.db.select().from(inboundEvents)).length;
    const now = Math.floor(Date.now() / 1000);
    const foreign = await generateKeyPair("ES256");
    const hs256 = await new SignJWT({ request_body_sha256: "x" })
      .setProtectedHeader({ alg: "HS256", kid: fake.currentKid() })
      .setIssuedAt()
      .sign(new TextEncoder().encode("secret-secret-secret-secret-1234"));
    const cases: [string, Request][] = [
      ["missing header", webhookRequest(body, null)],
      ["malformed JWT", webhookRequest(body, "not.a.jwt")],
      ["HS256 instead of ES256", webhookRequest(body, hs256)],
      [
        "unknown kid",
        webhookRequest(body, await new SignJWT({ request_body_sha256: "0" }).setProtectedHeader({ alg: "ES256", kid: "nope" }).setIssuedAt().sign(foreign.privateKey)),
      ],
      [
        "signed by another key under the provider's kid",
        webhookRequest(
          body,
          await new SignJWT({ request_body_sha256: "0" }).setProtectedHeader({ alg: "ES256", kid: fake.currentKid() }).setIssuedAt().sign(foreign.privateKey),
        ),
      ],
      ["tampered body", webhookRequest(body.replace("item-x", "item-y"), await fake.signWebhook(body))],
      ["body hash claim of other bytes", webhookRequest(body, await fake.signWebhook(body, { bodySha256: "ab".repeat(32) }))],
      ["stale iat (6 minutes)", webhookRequest(body, await fake.signWebhook(body, { iat: now - 6 * 60 }))],
      ["iat in the future", webhookRequest(body, await fake.signWebhook(body, { iat: now + 10 * 60 }))],
    ];
    for (const [name, request] of cases) {
      const response = await bankWebhook(request);
      expect({ name, status: response.status }).toEqual({ name, status: 401 });
      expect(await response.json()).toHaveProperty("error");
    }
    expect(await testDb.db.select().from(inboundEvents)).toHaveLength(stored);
  });

  it("refuses a key the provider has expired, and accepts the rotated one", async () => {
    const old = fake.currentKid();
    const fresh = await fake.rotateKey();
    fake.expireKey(fresh); // never fetched before: no cache in the way
    expect((await send(body, { kid: fresh })).status).toBe(401);
    const next = await fake.rotateKey();
    expect(next).not.toBe(old);
    expect((await send(itemWebhook("item-x", "NEW_ACCOUNTS_AVAILABLE", { n: 2 }), { kid: next })).status).toBe(200);
  });

  it("asks the provider about an unknown kid once per minute, not on every request", async () => {
    const forger = await generateKeyPair("ES256");
    const kid = randomUUID();
    const forged = await new SignJWT({ request_body_sha256: "0" }).setProtectedHeader({ alg: "ES256", kid }).setIssuedAt().sign(forger.privateKey);
    const lookups = () => fake.requests.filter((r) => r.path === "/webhook_verification_key/get" && r.body.key_id === kid).length;
    for (let i = 0; i < 5; i++) expect((await bankWebhook(webhookRequest(body, forged))).status).toBe(401);
    expect(lookups()).toBe(1);
    const later = () => new Date(Date.now() + 61_000);
    await expect(verifyBankWebhook({ rawBody: body, headers: new Headers({ "bank-verification": forged }), now: later })).rejects.toThrow();
    expect(lookups()).toBe(2);
  });

  it("bounds the provider lookups of unknown kids whatever the kid: 20 forged kids cost at most 5 lookups a minute", async () => {
    // A window of its own (an hour ahead), so the lookups of the tests above do not count in it.
    const at = Date.now() + 3600_000;
    const later = () => new Date(at);
    const forger = await generateKeyPair("ES256");
    const before = fake.requests.filter((r) => r.path === "/webhook_verification_key/get").length;
    const forgeries = await Promise.all(
      Array.from({ length: 20 }, () =>
        new SignJWT({ request_body_sha256: "0" }).setProtectedHeader({ alg: "ES256", kid: randomUUID() }).setIssuedAt(Math.floor(at / 1000)).sign(forger.privateKey),
      ),
    );
    const outcomes = await Promise.allSettled(forgeries.map((jwt) => verifyBankWebhook({ rawBody: body, headers: new Headers({ "bank-verification": jwt }), now: later })));
    expect(outcomes.every((o) => o.status === "rejected")).toBe(true);
    const lookups = fake.requests.filter((r) => r.path === "/webhook_verification_key/get").length - before;
    expect(lookups).toBeGreaterThan(0);
    expect(lookups).toBeLessThanOrEqual(5);
    // The provider's own kid, fetched before, is still refreshed and verified in the same minute.
    const jwt = await fake.signWebhook(body, { iat: Math.floor(at / 1000) });
    await expect(verifyBankWebhook({ rawBody: body, headers: new Headers({ "bank-verification": jwt }), now: later })).resolves.toMatchObject({ type: "ITEM.NEW_ACCOUNTS_AVAILABLE" });
  });

  it("refuses a kid of an impossible shape without asking the provider", async () => {
    const before = fake.requests.length;
    const forger = await generateKeyPair("ES256");
    const forged = await new SignJWT({}).setProtectedHeader({ alg: "ES256", kid: "../".repeat(50) }).setIssuedAt().sign(forger.privateKey);
    expect((await bankWebhook(webhookRequest(body, forged))).status).toBe(401);
    expect(fake.requests.length).toBe(before);
  });

  it("answers 503 when bank linking is not configured", async () => {
    setEnvForTests(bankEnv(fake, { PLAID_CLIENT_ID: "", PLAID_SECRET: "" }));
    expect((await bankWebhook(webhookRequest(body, await fake.signWebhook(body)))).status).toBe(503);
  });
});

describe("item webhooks move the item's health, visible in /api/bank/status", () => {
  it("follows ITEM and TRANSACTIONS codes", async () => {
    const itemId = await linkItem();
    const steps: [string, Record<string, unknown>, string, string, boolean][] = [
      ["ERROR", { error: { error_code: "ITEM_LOGIN_REQUIRED", error_type: "ITEM_ERROR" } }, "ITEM", "login_required", true],
      ["LOGIN_REPAIRED", {}, "ITEM", "healthy", true],
      ["SYNC_UPDATES_AVAILABLE", { initial_update_complete: true }, "TRANSACTIONS", "healthy", true],
      ["PENDING_EXPIRATION", { consent_expiration_time: "2030-01-01T00:00:00Z" }, "ITEM", "pending_expiration", true],
      ["NEW_ACCOUNTS_AVAILABLE", {}, "ITEM", "pending_expiration", true],
      ["PENDING_DISCONNECT", { reason: "INSTITUTION_MIGRATION" }, "ITEM", "pending_disconnect", true],
      ["USER_PERMISSION_REVOKED", { error: { error_code: "USER_PERMISSION_REVOKED" } }, "ITEM", "revoked", false],
    ];
    for (const [code, extra, type, health, connected] of steps) {
      expect((await send(itemWebhook(itemId, code, extra, type))).status).toBe(200);
      await drainJobs(testDb.db);
      expect(await statusItem(itemId)).toMatchObject({ connected, item: { health, last_webhook_code: `${type}.${code}` } });
    }
  });

  it("treats a redelivery as a duplicate and ignores webhooks for items it does not store", async () => {
    const itemId = await linkItem();
    const body = itemWebhook(itemId, "ERROR", { error: { error_code: "ITEM_LOGIN_REQUIRED" } });
    const jwt = await fake.signWebhook(body);
    expect(await (await bankWebhook(webhookRequest(body, jwt))).json()).toEqual({ received: true });
    expect(await (await bankWebhook(webhookRequest(body, jwt))).json()).toEqual({ received: true, duplicate: true });
    const unknown = itemWebhook("item-unknown", "LOGIN_REPAIRED");
    expect((await send(unknown)).status).toBe(200);
    await drainJobs(testDb.db);
    const [row] = await testDb.db.select().from(bankItems).where(eq(bankItems.itemId, itemId));
    expect(row!.health).toBe("login_required");
    const events = await testDb.db.select().from(inboundEvents).where(eq(inboundEvents.type, "ITEM.LOGIN_REPAIRED"));
    expect(events.some((e) => e.status === "ignored" && e.lastError === "No stored bank item with this item_id.")).toBe(true);
  });
});
