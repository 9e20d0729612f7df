import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setEnvForTests } from "@/lib/env";
import { syncClerkUser } from "@/lib/identity/sync-clerk-user";
import { callApi, tokenFor } from "@/tests/helpers/api";
import { clerkKeys, clerkToken } from "@/tests/helpers/clerk";
import { createTestDb, type TestDb } from "@/tests/helpers/db";
import { users } from "@/db/schema";

let testDb: TestDb;

beforeAll(async () => {
  setEnvForTests({ CLERK_JWT_KEY: clerkKeys.publicPem, CLERK_AUTHORIZED_PARTIES: "http://localhost:3000" });
  testDb = await createTestDb();
});

afterAll(async () => {
  await testDb.cleanup();
});

describe("GET /v1/signing/session with a Clerk token", () => {
  it("answers 200 for the user whose auth subject is the Clerk user id", async () => {
    const { user } = await testDb.db.transaction((tx) =>
      syncClerkUser(tx, {
        user: {
          id: "user_2session",
          email_addresses: [{ id: "idn_1", email_address: "Clerk.Person@example.test", verification: { status: "verified" } }],
          primary_email_address_id: "idn_1",
          first_name: "Clerk",
          last_name: "Person",
        },
      }),
    );
    const response = await callApi("/v1/signing/session", { token: await clerkToken({ sub: "user_2session" }) });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      user: { id: user.id, email: "Clerk.Person@example.test", name: "Clerk Person", authProvider: "clerk" },
      roles: [],
    });
  });

  it("answers 401 for a valid token whose subject is unknown", async () => {
    const response = await callApi("/v1/signing/session", { token: await clerkToken({ sub: "user_2nobody" }) });
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ error: "Invalid or expired token." });
  });

  it("still answers local tokens while Clerk is configured", async () => {
    await testDb.db.insert(users).values({ email: "local@example.test", name: "Local", authSubject: "local|local@example.test" });
    const response = await callApi("/v1/signing/session", { token: await tokenFor("local@example.test") });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ user: { email: "local@example.test", authProvider: "local" } });
  });

  it("answers 401 for a token made for another site when CLERK_AUTHORIZED_PARTIES is unset (APP_URL's origin only)", async () => {
    await testDb.db.insert(users).values({ email: "azp@example.test", name: "Azp", authProvider: "clerk", authSubject: "user_2azp" });
    setEnvForTests({ CLERK_JWT_KEY: clerkKeys.publicPem, CLERK_AUTHORIZED_PARTIES: undefined, APP_URL: "http://localhost:3000" });
    try {
      const foreign = await callApi("/v1/signing/session", { token: await clerkToken({ sub: "user_2azp", azp: "https://evil.example.test" }) });
      expect(foreign.status).toBe(401);
      expect(foreign.body).toEqual({ error: "Invalid or expired token." });
      const own = await callApi("/v1/signing/session", { token: await clerkToken({ sub: "user_2azp", azp: "http://localhost:3000" }) });
      expect(own.status).toBe(200);
    } finally {
      setEnvForTests({ CLERK_JWT_KEY: clerkKeys.publicPem, CLERK_AUTHORIZED_PARTIES: "http://localhost:3000" });
    }
  });
});
