import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createPublicKey, generateKeyPairSync } from "node:crypto";
import { importPKCS8, SignJWT } from "jose";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { users } from "@/db/schema";
import { CLERK_KEY_SET_COOLDOWN_MS, resetClerkKeySet } from "@/lib/auth/clerk-key-set";
import { setEnvForTests } from "@/lib/env";
import { callApi } from "@/tests/helpers/api";
import { clerkKeys, clerkToken } from "@/tests/helpers/clerk";
import { createTestDb, type TestDb } from "@/tests/helpers/db";

// /v1 with Clerk configured by its secret key only (no CLERK_JWT_KEY): the signing keys come from the
// instance's key set on a fake Backend API, which counts how often it is asked.

let testDb: TestDb;
let server: Server;
let jwksRequests = 0;
let servedKeys: object[] = [];

function jwkOf(publicPem: string, kid: string): object {
  return { ...createPublicKey(publicPem).export({ format: "jwk" }), kid, alg: "RS256", use: "sig" };
}

beforeAll(async () => {
  testDb = await createTestDb();
  await testDb.db.insert(users).values({ email: "keyset@example.test", name: "Key Set", authProvider: "clerk", authSubject: "user_2keyset" });
  server = createServer((request, response) => {
    if (request.url === "/v1/jwks" && request.headers.authorization === "Bearer sk_test_keyset") {
      jwksRequests++;
      response.writeHead(200, { "content-type": "application/json" });
      return void response.end(JSON.stringify({ keys: servedKeys }));
    }
    response.writeHead(404).end("{}");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const apiUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  setEnvForTests({ CLERK_SECRET_KEY: "sk_test_keyset", CLERK_API_URL: apiUrl, CLERK_JWT_KEY: undefined, CLERK_AUTHORIZED_PARTIES: "http://localhost:3000" });
});

afterAll(async () => {
  setEnvForTests({});
  resetClerkKeySet();
  vi.restoreAllMocks();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await testDb.cleanup();
});

beforeEach(() => {
  resetClerkKeySet();
  jwksRequests = 0;
  servedKeys = [jwkOf(clerkKeys.publicPem, "ins_2abc")];
});

/** A Clerk-shaped token signed by the test instance key but naming another key id. */
async function tokenWithKid(kid: string): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ azp: "http://localhost:3000", sid: "sess_2abc", v: 2, jti: kid })
    .setProtectedHeader({ alg: "RS256", kid, typ: "JWT" })
    .setSubject("user_2keyset")
    .setIssuedAt(now - 5)
    .setNotBefore(now - 10)
    .setExpirationTime(now + 60)
    .sign(await importPKCS8(clerkKeys.privatePem, "RS256"));
}

const session = async (token: string) => (await callApi("/v1/signing/session", { token })).status;

describe("Clerk's key set behind /v1 (no CLERK_JWT_KEY)", () => {
  it("verifies a token with the key set, fetched once for many requests", async () => {
    expect(await session(await clerkToken({ sub: "user_2keyset" }))).toBe(200);
    expect(await session(await clerkToken({ sub: "user_2keyset" }))).toBe(200);
    expect(jwksRequests).toBe(1);
  });

  it("twenty tokens with twenty unknown kids cause at most one refetch per cooldown", async () => {
    expect(await session(await clerkToken({ sub: "user_2keyset" }))).toBe(200);
    expect(jwksRequests).toBe(1);
    const statuses: number[] = [];
    for (let i = 0; i < 20; i++) statuses.push(await session(await tokenWithKid(`ins_unknown${i}`)));
    expect(statuses).toEqual(Array(20).fill(401));
    // The first unknown kid may refetch (a rotation would show up there); the other nineteen do not.
    expect(jwksRequests).toBeLessThanOrEqual(2);
    expect(await session(await clerkToken({ sub: "user_2keyset" }))).toBe(200);
    expect(jwksRequests).toBeLessThanOrEqual(2);
  });

  it("picks up a rotated key at the first refetch after the cooldown", async () => {
    const rotated = generateKeyPairSync("rsa", { modulusLength: 2048, publicKeyEncoding: { type: "spki", format: "pem" }, privateKeyEncoding: { type: "pkcs8", format: "pem" } });
    expect(await session(await clerkToken({ sub: "user_2keyset" }))).toBe(200);
    servedKeys = [jwkOf(clerkKeys.publicPem, "ins_2abc"), jwkOf(rotated.publicKey, "ins_2rotated")];
    const now = Date.now();
    const rotatedToken = await new SignJWT({ azp: "http://localhost:3000", sid: "sess_2abc", v: 2 })
      .setProtectedHeader({ alg: "RS256", kid: "ins_2rotated", typ: "JWT" })
      .setSubject("user_2keyset")
      .setIssuedAt(Math.floor(now / 1000) - 5)
      .setNotBefore(Math.floor(now / 1000) - 10)
      .setExpirationTime(Math.floor(now / 1000) + 3600)
      .sign(await importPKCS8(rotated.privateKey, "RS256"));
    // Right after the first fetch the unknown kid is refused (the cooldown of the first attempt has not passed).
    expect(await session(rotatedToken)).toBe(401);
    expect(jwksRequests).toBe(1);
    vi.spyOn(Date, "now").mockReturnValue(now + CLERK_KEY_SET_COOLDOWN_MS + 1000);
    try {
      expect(await session(rotatedToken)).toBe(200);
      expect(jwksRequests).toBe(2);
    } finally {
      vi.restoreAllMocks();
    }
  });
});
