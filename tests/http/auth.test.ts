import { SignJWT, base64url } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { users } from "@/db/schema";
import { deriveLocalKeys, getLocalKeys, LOCAL_AUDIENCE, LOCAL_ISSUER } from "@/lib/auth/local-keys";
import { localSubjectForEmail } from "@/lib/auth/local-tokens";
import { callApi, tokenFor } from "../helpers/api";
import { createTestDb, type TestDb } from "../helpers/db";
import { loadDemoWorld } from "../helpers/fixtures";

const MISSING = { error: "Missing Authorization Bearer token." };
const EMPTY = { error: "Empty bearer token." };
const INVALID = { error: "Invalid or expired token." };

let testDb: TestDb;

beforeAll(async () => {
  testDb = await createTestDb();
  await loadDemoWorld(testDb.db);
});
afterAll(() => testDb.cleanup());

const session = (headers: Record<string, string>) => callApi("/v1/signing/session", { headers });

/** Signs a token with the given key/claims, bypassing the issuer helper, to build hostile tokens. */
async function forge(options: {
  key?: ReturnType<typeof deriveLocalKeys>;
  kid?: string;
  sub?: string;
  iss?: string;
  aud?: string;
  exp?: number;
  iat?: number;
}) {
  const keys = options.key ?? getLocalKeys();
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({})
    .setProtectedHeader({ alg: "EdDSA", kid: options.kid ?? keys.kid })
    .setSubject(options.sub ?? localSubjectForEmail("manager@demo.local"))
    .setIssuer(options.iss ?? LOCAL_ISSUER)
    .setAudience(options.aud ?? LOCAL_AUDIENCE)
    .setIssuedAt(options.iat ?? now)
    .setExpirationTime(options.exp ?? now + 300)
    .sign(keys.privateKey);
}

describe("Authorization header parsing (the documented error texts, docs/architecture.md)", () => {
  it.each([
    ["no header", {}],
    ["a Basic credential", { authorization: "Basic bWFuYWdlcjpwYXNz" }],
    ["a token without a scheme", { authorization: "eyJhbGciOiJFZERTQSJ9.e30.sig" }],
    ["Bearer glued to the token", { authorization: "Bearerabc.def.ghi" }],
  ])("answers 401 Missing for %s", async (_, headers) => {
    const res = await session(headers);
    expect(res.status).toBe(401);
    expect(res.body).toEqual(MISSING);
  });

  it.each([
    ["Bearer with nothing after it", "Bearer"],
    ["Bearer followed by spaces", "Bearer    "],
  ])("answers 401 Empty for %s", async (_, authorization) => {
    const res = await session({ authorization });
    expect(res.status).toBe(401);
    expect(res.body).toEqual(EMPTY);
  });

  it("accepts the scheme case-insensitively (RFC 7235)", async () => {
    const res = await session({ authorization: `bearer ${await tokenFor("manager@demo.local")}` });
    expect(res.status).toBe(200);
  });

  it("requires the token on every /v1 path, including unknown ones and the OpenAPI document", async () => {
    for (const path of ["/v1/nope", "/v1/openapi.json", "/v1/signing/manager/signings"]) {
      const res = await callApi(path);
      expect(res.status, path).toBe(401);
      expect(res.body).toEqual(MISSING);
    }
  });
});

describe("token verification", () => {
  it("accepts a fresh local token", async () => {
    const res = await session({ authorization: `Bearer ${await tokenFor("manager@demo.local")}` });
    expect(res.status).toBe(200);
  });

  it("rejects an expired token", async () => {
    const now = Math.floor(Date.now() / 1000);
    const token = await forge({ iat: now - 600, exp: now - 60 });
    expect((await session({ authorization: `Bearer ${token}` })).body).toEqual(INVALID);
  });

  it("rejects a token that expired one second ago with a one-second lifetime", async () => {
    const token = await tokenFor("manager@demo.local", 1);
    await new Promise((r) => setTimeout(r, 2100));
    const res = await session({ authorization: `Bearer ${token}` });
    expect(res.status).toBe(401);
    expect(res.body).toEqual(INVALID);
  });

  it("rejects a token signed by another key, whatever kid it claims", async () => {
    const other = deriveLocalKeys("a-completely-different-secret-of-enough-length");
    for (const token of [await forge({ key: other }), await forge({ key: other, kid: getLocalKeys().kid })]) {
      const res = await session({ authorization: `Bearer ${token}` });
      expect(res.status).toBe(401);
      expect(res.body).toEqual(INVALID);
    }
  });

  it("rejects alg: none", async () => {
    const enc = (o: object) => base64url.encode(JSON.stringify(o));
    const now = Math.floor(Date.now() / 1000);
    const payload = { sub: localSubjectForEmail("manager@demo.local"), iss: LOCAL_ISSUER, aud: LOCAL_AUDIENCE, iat: now, exp: now + 300 };
    for (const token of [
      `${enc({ alg: "none", kid: getLocalKeys().kid })}.${enc(payload)}.`,
      `${enc({ alg: "none" })}.${enc(payload)}.`,
    ]) {
      const res = await session({ authorization: `Bearer ${token}` });
      expect(res.status).toBe(401);
      expect(res.body).toEqual(INVALID);
    }
  });

  it("rejects an HS256 token keyed with the auth secret (algorithm confusion)", async () => {
    const now = Math.floor(Date.now() / 1000);
    const token = await new SignJWT({})
      .setProtectedHeader({ alg: "HS256", kid: getLocalKeys().kid })
      .setSubject(localSubjectForEmail("manager@demo.local"))
      .setIssuer(LOCAL_ISSUER)
      .setAudience(LOCAL_AUDIENCE)
      .setIssuedAt(now)
      .setExpirationTime(now + 300)
      .sign(new TextEncoder().encode(process.env.AUTH_SECRET));
    expect((await session({ authorization: `Bearer ${token}` })).body).toEqual(INVALID);
  });

  it("rejects the wrong issuer or audience", async () => {
    for (const token of [await forge({ iss: "https://evil.example" }), await forge({ aud: "someone-else" })]) {
      expect((await session({ authorization: `Bearer ${token}` })).body).toEqual(INVALID);
    }
  });

  it("rejects a tampered payload", async () => {
    const token = await tokenFor("signer@demo.local");
    const [h, , s] = token.split(".");
    const payload = base64url.encode(JSON.stringify({ sub: localSubjectForEmail("admin@demo.local"), exp: 9999999999 }));
    expect((await session({ authorization: `Bearer ${h}.${payload}.${s}` })).body).toEqual(INVALID);
  });

  it.each(["garbage", "a.b.c", "....", "x".repeat(5000)])("rejects the malformed token %#", async (token) => {
    const res = await session({ authorization: `Bearer ${token}` });
    expect(res.status).toBe(401);
    expect(res.body).toEqual(INVALID);
  });

  it("rejects a valid signature for an unknown subject", async () => {
    const res = await session({ authorization: `Bearer ${await tokenFor("nobody@demo.local")}` });
    expect(res.status).toBe(401);
    expect(res.body).toEqual(INVALID);
  });

  it("rejects the token of a deactivated user", async () => {
    const token = await tokenFor("cosigner@demo.local");
    expect((await session({ authorization: `Bearer ${token}` })).status).toBe(200);
    await testDb.db.update(users).set({ isActive: false, deactivatedAt: new Date() }).where(eq(users.email, "cosigner@demo.local"));
    const res = await session({ authorization: `Bearer ${token}` });
    expect(res.status).toBe(401);
    expect(res.body).toEqual(INVALID);
    await testDb.db.update(users).set({ isActive: true, deactivatedAt: null }).where(eq(users.email, "cosigner@demo.local"));
  });
});

describe("public endpoints", () => {
  it("serves /health without a token, with exactly the spec fields", async () => {
    const res = await callApi("/health");
    expect(res.status).toBe(200);
    const body = res.body as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(["ok", "service", "ts"]);
    expect(body.ok).toBe(true);
    expect(body.service).toBe("core-api");
    expect(new Date(body.ts as string).toISOString()).toBe(body.ts);
  });

  it("serves /ready without a token", async () => {
    const res = await callApi("/ready");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ready: true });
  });

  it("publishes the local verification key, never the private part", async () => {
    const res = await callApi("/.well-known/jwks.json");
    expect(res.status).toBe(200);
    const { keys } = res.body as { keys: Record<string, unknown>[] };
    expect(keys).toHaveLength(1);
    expect(keys[0]).toMatchObject({ kty: "OKP", crv: "Ed25519", alg: "EdDSA", kid: getLocalKeys().kid });
    expect(keys[0]).not.toHaveProperty("d");
  });
});
