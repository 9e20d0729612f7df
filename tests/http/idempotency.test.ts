import { count, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chattelDocuments, idempotencyKeys, signingPackages } from "@/db/schema";
import { createTestDb, type TestDb } from "../helpers/db";
import { as, BASE, loadManagerWorld } from "../helpers/manager";

// Idempotency-Key on /v1 creates, with Stripe's semantics, on a real database.

const MANAGER = "manager@demo.local";
let testDb: TestDb;
let world: Awaited<ReturnType<typeof loadManagerWorld>>;

beforeAll(async () => {
  testDb = await createTestDb();
  world = await loadManagerWorld(testDb.db);
}, 120_000);
afterAll(() => testDb.cleanup());

const packagesTitled = async (title: string) =>
  (await testDb.db.select({ n: count() }).from(signingPackages).where(eq(signingPackages.title, title)))[0]!.n;

describe("Idempotency-Key on POST creates", () => {
  it("the same key and body answer the same package, created once; another body is a 422", async () => {
    const body = { locationId: world.austin.id, title: "Idempotent package" };
    const headers = { "idempotency-key": "create-1" };
    const first = await as(MANAGER, `${BASE}/signings`, { json: body, headers });
    expect(first.status).toBe(201);
    const again = await as(MANAGER, `${BASE}/signings`, { json: body, headers });
    expect(again.status).toBe(201);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.body).toEqual(first.body);
    expect(await packagesTitled("Idempotent package")).toBe(1);

    const other = await as(MANAGER, `${BASE}/signings`, { json: { ...body, title: "Another" }, headers });
    expect(other.status).toBe(422);
    expect(await packagesTitled("Another")).toBe(0);

    // Without a key, each POST creates.
    await as(MANAGER, `${BASE}/signings`, { json: body });
    expect(await packagesTitled("Idempotent package")).toBe(2);
  });

  it("concurrent requests with one key create one record", async () => {
    const body = { locationId: world.austin.id, title: "Raced package" };
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => as(MANAGER, `${BASE}/signings`, { json: body, headers: { "idempotency-key": "race-1" } })),
    );
    expect(await packagesTitled("Raced package")).toBe(1);
    for (const answer of answers) expect([201, 409]).toContain(answer.status);
    const ids = new Set(answers.filter((a) => a.status === 201).map((a) => (a.body as { id: string }).id));
    expect(ids.size).toBe(1);
  });

  it("holds for chattel documents too, keeps the key 24 hours and forgets it after", async () => {
    const body = { type: "certificate_of_title", title: "Idempotent title", locationId: world.austin.id };
    const headers = { "idempotency-key": "doc-1" };
    const first = await as(MANAGER, "/v1/documents", { json: body, headers });
    expect(first.status, first.text).toBe(201);
    expect((await as(MANAGER, "/v1/documents", { json: body, headers })).body).toEqual(first.body);
    const countDocs = async () => (await testDb.db.select({ n: count() }).from(chattelDocuments).where(eq(chattelDocuments.title, "Idempotent title")))[0]!.n;
    expect(await countDocs()).toBe(1);
    // A day later the key is free again: the same request creates a second document.
    await testDb.db.update(idempotencyKeys).set({ createdAt: new Date(Date.now() - 25 * 60 * 60 * 1000) }).where(eq(idempotencyKeys.key, "doc-1"));
    expect((await as(MANAGER, "/v1/documents", { json: body, headers })).status).toBe(201);
    expect(await countDocs()).toBe(2);
  });

  it("refuses a malformed key with a 400 and creates nothing", async () => {
    const res = await as(MANAGER, `${BASE}/signings`, { json: { locationId: world.austin.id, title: "Bad key" }, headers: { "idempotency-key": "has space" } });
    expect(res.status).toBe(400);
    expect(await packagesTitled("Bad key")).toBe(0);
  });
});
