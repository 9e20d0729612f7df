import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { POST } from "@/app/api/auth/token/route";
import { apiKeys, users } from "@/db/schema";
import { hashApiKey } from "@/lib/api-keys/api-key-format";
import { createApiKey } from "@/lib/api-keys/create-api-key";
import { listApiKeys } from "@/lib/api-keys/list-api-keys";
import { revokeApiKey } from "@/lib/api-keys/revoke-api-key";
import { verifyAccessToken } from "@/lib/auth/verify-access-token";
import { localSubjectForEmail } from "@/lib/auth/local-tokens";
import { AppError } from "@/lib/errors";
import { seedDemo } from "@/lib/seed/seed-demo";
import { callApi } from "@/tests/helpers/api";
import { createTestDb, type TestDb } from "@/tests/helpers/db";
import { ErrorBody } from "@/tests/helpers/schemas";

const TokenResponse = z.strictObject({
  token: z.string().min(20),
  tokenType: z.literal("Bearer"),
  expiresIn: z.number().int().positive(),
  expiresAt: z.iso.datetime(),
});

let testDb: TestDb;
let managerId: string;
let signerId: string;

beforeAll(async () => {
  testDb = await createTestDb();
  await seedDemo(testDb.db);
  const rows = await testDb.db.select({ id: users.id, email: users.email }).from(users);
  managerId = rows.find((u) => u.email === "manager@demo.local")!.id;
  signerId = rows.find((u) => u.email === "signer@demo.local")!.id;
});

afterAll(async () => {
  await testDb.cleanup();
});

function post(init: { json?: unknown; body?: string; authorization?: string } = {}): Promise<Response> {
  const headers = new Headers();
  if (init.authorization) headers.set("authorization", init.authorization);
  let body = init.body;
  if (init.json !== undefined) {
    body = JSON.stringify(init.json);
    headers.set("content-type", "application/json");
  }
  return POST(new Request("http://localhost:3000/api/auth/token", { method: "POST", headers, body }));
}

async function expectError(response: Response, status: number): Promise<void> {
  expect(response.status).toBe(status);
  ErrorBody.parse(await response.json());
}

describe("personal API keys", () => {
  it("stores only the hash and a recognisable prefix, and lists keys without the hash", async () => {
    const { key, apiKey } = await createApiKey(testDb.db, { userId: managerId, name: "  export script " });
    expect(key).toMatch(/^csk_[A-Za-z0-9_-]{43}$/);
    expect(apiKey.name).toBe("export script");
    expect(key.startsWith(apiKey.prefix)).toBe(true);
    const [row] = await testDb.db.select().from(apiKeys).where(eq(apiKeys.id, apiKey.id));
    expect(row!.keyHash).toBe(hashApiKey(key));
    expect(JSON.stringify(row)).not.toContain(key);

    const listed = await listApiKeys(testDb.db, { userId: managerId });
    expect(listed.map((k) => k.id)).toContain(apiKey.id);
    expect(listed[0]).not.toHaveProperty("keyHash");
    expect(await listApiKeys(testDb.db, { userId: signerId })).toEqual([]);
  });

  it("does not let one user revoke another user's key", async () => {
    const { apiKey } = await createApiKey(testDb.db, { userId: managerId, name: "not yours" });
    await expect(revokeApiKey(testDb.db, { userId: signerId, apiKeyId: apiKey.id })).rejects.toSatisfy(
      (e) => e instanceof AppError && e.status === 404,
    );
    const again = await revokeApiKey(testDb.db, { userId: managerId, apiKeyId: apiKey.id });
    expect(again.state).toBe("revoked");
    // Revoking twice is harmless and keeps the first revocation time.
    const twice = await revokeApiKey(testDb.db, { userId: managerId, apiKeyId: apiKey.id });
    expect(twice.revokedAt).toEqual(again.revokedAt);
  });
});

describe("POST /api/auth/token", () => {
  it("exchanges a key in the JSON body for a token that /v1 accepts, and records last use", async () => {
    const { key, apiKey } = await createApiKey(testDb.db, { userId: managerId, name: "body" });
    const response = await post({ json: { apiKey: key } });
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    const body = TokenResponse.parse(await response.json());

    await expect(verifyAccessToken(body.token)).resolves.toMatchObject({ subject: localSubjectForEmail("manager@demo.local") });
    const session = await callApi("/v1/signing/session", { token: body.token });
    expect(session.status).toBe(200);
    expect(session.body).toMatchObject({ user: { email: "manager@demo.local" } });

    const [row] = await testDb.db.select().from(apiKeys).where(eq(apiKeys.id, apiKey.id));
    expect(row!.lastUsedAt).toBeInstanceOf(Date);
  });

  it("accepts the key as Authorization: Bearer", async () => {
    const { key } = await createApiKey(testDb.db, { userId: signerId, name: "header" });
    const response = await post({ authorization: `Bearer ${key}` });
    expect(response.status).toBe(200);
    const { token } = TokenResponse.parse(await response.json());
    await expect(verifyAccessToken(token)).resolves.toMatchObject({ subject: localSubjectForEmail("signer@demo.local") });
  });

  it("answers 401 to an unknown key", async () => {
    await expectError(await post({ json: { apiKey: `csk_${"A".repeat(43)}` } }), 401);
  });

  it("answers 401 to a revoked key", async () => {
    const { key, apiKey } = await createApiKey(testDb.db, { userId: managerId, name: "revoked" });
    await revokeApiKey(testDb.db, { userId: managerId, apiKeyId: apiKey.id });
    await expectError(await post({ json: { apiKey: key } }), 401);
  });

  it("answers 401 to an expired key", async () => {
    const { key, apiKey } = await createApiKey(testDb.db, { userId: managerId, name: "expired", expiresInDays: 30 });
    expect((await post({ json: { apiKey: key } })).status).toBe(200);
    await testDb.db.update(apiKeys).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(apiKeys.id, apiKey.id));
    await expectError(await post({ json: { apiKey: key } }), 401);
  });

  it("answers 401 when the key's owner is deactivated", async () => {
    const [user] = await testDb.db
      .insert(users)
      .values({ email: "leaver@demo.local", name: "Lee Leaver", authSubject: localSubjectForEmail("leaver@demo.local") })
      .returning();
    const { key } = await createApiKey(testDb.db, { userId: user!.id, name: "leaver" });
    expect((await post({ json: { apiKey: key } })).status).toBe(200);
    await testDb.db.update(users).set({ isActive: false, deactivatedAt: new Date() }).where(eq(users.id, user!.id));
    await expectError(await post({ json: { apiKey: key } }), 401);
  });

  it.each([
    ["invalid JSON", { body: "{nope" }],
    ["a body without apiKey", { json: { key: "csk_x" } }],
    ["apiKey that is not a string", { json: { apiKey: 42 } }],
    ["a key that is not a personal API key", { json: { apiKey: "not-a-key" } }],
    ["no body and no Authorization header", {}],
  ])("answers 400 to %s", async (_name, init) => {
    await expectError(await post(init), 400);
  });
});
