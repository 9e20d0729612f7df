import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { bankItems } from "@/db/schema";
import { POST as exchangeRoute } from "@/app/api/bank/exchange/route";
import { POST as linkTokenRoute } from "@/app/api/bank/link-token/route";
import { GET as statusRoute } from "@/app/api/bank/status/route";
import { decryptBankToken, loadBankTokenKey } from "@/lib/bank/token-crypto";
import { setEnvForTests } from "@/lib/env";
import { startFakePlaid, type FakePlaid } from "@/tests/fakes/plaid/server";
import { bankEnv, bankRequest, sessionCookieFor } from "@/tests/helpers/bank";
import { createTestDb, type TestDb } from "@/tests/helpers/db";
import { createUser } from "@/tests/helpers/fixtures";
import { inRequestScope } from "@/tests/helpers/next-request-scope";

const exchange = inRequestScope(exchangeRoute);
const linkToken = inRequestScope(linkTokenRoute);
const status = inRequestScope(statusRoute);

let testDb: TestDb;
let fake: FakePlaid;
let cookie: string;
let userId: string;

beforeAll(async () => {
  testDb = await createTestDb();
  fake = await startFakePlaid();
  const user = await createUser(testDb.db, "borrower-bank@example.com");
  userId = user.id;
  cookie = await sessionCookieFor(user);
});

beforeEach(() => {
  setEnvForTests(bankEnv(fake));
});

afterAll(async () => {
  setEnvForTests({});
  await fake.close();
  await testDb.cleanup();
});

async function json(response: Response) {
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe("bank linking end to end (real plaid SDK against the fake)", () => {
  it("link token → public token → exchange → status connected, with the access token encrypted at rest", async () => {
    expect(await json(await status(bankRequest("/api/bank/status", { method: "GET", cookie })))).toMatchObject({
      status: 200,
      body: { connected: false, item: null, items: [] },
    });

    const link = await json(await linkToken(bankRequest("/api/bank/link-token", { cookie })));
    expect(link.status).toBe(200);
    expect(link.body.link_token).toMatch(/^link-sandbox-/);
    const sent = fake.requests.find((r) => r.path === "/link/token/create")!.body;
    expect(sent).toMatchObject({ user: { client_user_id: userId }, webhook: "http://localhost:3000/api/webhooks/bank" });

    const publicToken = fake.issuePublicToken({ institutionId: "ins_3", institutionName: "Chase" });
    const exchanged = await json(await exchange(bankRequest("/api/bank/exchange", { cookie, body: { public_token: publicToken } })));
    expect(exchanged.status).toBe(200);
    expect(Object.keys(exchanged.body).sort()).toEqual(["institution_id", "item_id", "persist_hint", "persisted"]);
    expect(exchanged.body).toMatchObject({ institution_id: "ins_3", persisted: true, persist_hint: null });
    const itemId = exchanged.body.item_id as string;

    const [row] = await testDb.db.select().from(bankItems).where(eq(bankItems.itemId, itemId));
    expect(row).toMatchObject({ userId, institutionId: "ins_3", institutionName: "Chase", health: "healthy" });
    expect(row!.accessTokenCiphertext).not.toContain("access-sandbox");
    expect(decryptBankToken(row!.accessTokenCiphertext, { key: loadBankTokenKey()!, itemId })).toMatch(/^access-sandbox-/);
    expect(() => decryptBankToken(row!.accessTokenCiphertext, { key: loadBankTokenKey()!, itemId: "item-other" })).toThrow();

    expect(await json(await status(bankRequest("/api/bank/status", { method: "GET", cookie })))).toMatchObject({
      status: 200,
      body: { connected: true, item: { item_id: itemId, institution_id: "ins_3", institution_name: "Chase", health: "healthy", needs_attention: false } },
    });
  });

  it("refuses a public token used twice, or exchanged after 30 minutes, with a clear 400", async () => {
    const used = fake.issuePublicToken();
    expect((await exchange(bankRequest("/api/bank/exchange", { cookie, body: { public_token: used } }))).status).toBe(200);
    expect(await json(await exchange(bankRequest("/api/bank/exchange", { cookie, body: { public_token: used } })))).toEqual({
      status: 400,
      body: { error: "The public_token is invalid or was already exchanged. Start the bank link again." },
    });

    const late = fake.issuePublicToken();
    fake.advance(30 * 60_000 + 1);
    expect(await json(await exchange(bankRequest("/api/bank/exchange", { cookie, body: { public_token: late } })))).toEqual({
      status: 400,
      body: { error: "The public_token has expired (it is valid for 30 minutes). Start the bank link again." },
    });
    const inTime = fake.issuePublicToken();
    fake.advance(29 * 60_000);
    expect((await exchange(bankRequest("/api/bank/exchange", { cookie, body: { public_token: inTime } }))).status).toBe(200);
  });

  it.each([
    ["unset", ""],
    ["not base64", "not a key!"],
    ["16 bytes", Buffer.alloc(16, 1).toString("base64")],
  ])("with the encryption key %s: 200, persisted false, a hint for the administrator, nothing stored", async (_name, key) => {
    setEnvForTests(bankEnv(fake, { BANK_TOKEN_ENCRYPTION_KEY: key }));
    const before = await testDb.db.select().from(bankItems);
    const response = await json(await exchange(bankRequest("/api/bank/exchange", { cookie, body: { public_token: fake.issuePublicToken() } })));
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ persisted: false, institution_id: "ins_109508" });
    expect(response.body.item_id).toMatch(/^item-/);
    expect(response.body.persist_hint).toMatch(/encryption key/);
    expect(await testDb.db.select().from(bankItems)).toHaveLength(before.length);
  });

  it("answers 400 for a body without a public_token", async () => {
    for (const body of ["{", {}, { public_token: 7 }, { public_token: "" }]) {
      expect((await exchange(bankRequest("/api/bank/exchange", { cookie, body }))).status).toBe(400);
    }
  });
});

describe("bank endpoints: who may call them", () => {
  it("answers 401 JSON without a session, with a forged cookie, and for a deactivated user", async () => {
    const forged = "next-auth.session-token=eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2R0NNIn0..bad.bad.bad";
    for (const c of [undefined, forged]) {
      expect(await json(await linkToken(bankRequest("/api/bank/link-token", { cookie: c })))).toEqual({
        status: 401,
        body: { error: "Sign in to link a bank account." },
      });
      expect((await status(bankRequest("/api/bank/status", { method: "GET", cookie: c }))).status).toBe(401);
      expect((await exchange(bankRequest("/api/bank/exchange", { cookie: c, body: { public_token: "x" } }))).status).toBe(401);
    }
    const gone = await createUser(testDb.db, "gone-bank@example.com");
    const goneCookie = await sessionCookieFor(gone);
    const { users } = await import("@/db/schema");
    await testDb.db.update(users).set({ isActive: false }).where(eq(users.id, gone.id));
    expect((await status(bankRequest("/api/bank/status", { method: "GET", cookie: goneCookie }))).status).toBe(401);
  });

  it("answers 403 JSON to a cross-site POST and accepts same-origin ones", async () => {
    for (const origin of ["https://evil.example", "null", "http://localhost:3001"]) {
      expect(await json(await linkToken(bankRequest("/api/bank/link-token", { cookie, origin })))).toEqual({
        status: 403,
        body: { error: "Cross-site request refused." },
      });
    }
    const crossSite = bankRequest("/api/bank/link-token", { cookie, origin: null });
    crossSite.headers.set("sec-fetch-site", "cross-site");
    expect((await linkToken(crossSite)).status).toBe(403);
    expect((await exchange(bankRequest("/api/bank/exchange", { cookie, origin: "https://evil.example", body: { public_token: "x" } }))).status).toBe(403);
    expect((await linkToken(bankRequest("/api/bank/link-token", { cookie, origin: null }))).status).toBe(200);
  });

  it("answers 503 JSON when bank linking is not configured", async () => {
    setEnvForTests(bankEnv(fake, { PLAID_CLIENT_ID: "", PLAID_SECRET: "" }));
    for (const response of [
      await linkToken(bankRequest("/api/bank/link-token", { cookie })),
      await exchange(bankRequest("/api/bank/exchange", { cookie, body: { public_token: "x" } })),
      await status(bankRequest("/api/bank/status", { method: "GET", cookie })),
    ]) {
      expect(await json(response)).toEqual({ status: 503, body: { error: "Bank linking is not configured." } });
    }
  });

  it("answers 503 when the provider rejects the server's credentials", async () => {
    setEnvForTests(bankEnv(fake, { PLAID_SECRET: "wrong-secret" }));
    expect(await json(await linkToken(bankRequest("/api/bank/link-token", { cookie })))).toEqual({
      status: 503,
      body: { error: "The bank-linking provider is unavailable. Try again later." },
    });
  });
});
