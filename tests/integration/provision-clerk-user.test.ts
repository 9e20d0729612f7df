import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { users } from "@/db/schema";
import { provisionClerkUser } from "@/lib/sign-in/provision-clerk-user";
import { resolvePrincipal } from "@/lib/auth/principal";
import { setEnvForTests } from "@/lib/env";
import { createTestDb, type TestDb } from "@/tests/helpers/db";

let testDb: TestDb;
let bapi: Server;
const bapiRequests: { url: string; authorization: string | undefined }[] = [];

beforeAll(async () => {
  // A stand-in for Clerk's Backend API: GET /v1/users/:id answers a UserJSON.
  bapi = createServer((req, res) => {
    bapiRequests.push({ url: req.url ?? "", authorization: req.headers.authorization });
    const id = decodeURIComponent((req.url ?? "").replace("/v1/users/", ""));
    if (id !== "user_2fromApi") {
      res.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ errors: [{ code: "resource_not_found" }] }));
      return;
    }
    res.writeHead(200, { "content-type": "application/json" }).end(
      JSON.stringify({
        object: "user",
        id,
        first_name: "Api",
        last_name: "Person",
        primary_email_address_id: "idn_api",
        email_addresses: [{ id: "idn_api", email_address: "api.person@example.test", verification: { status: "verified" } }],
      }),
    );
  });
  await new Promise<void>((r) => bapi.listen(0, "127.0.0.1", r));
  setEnvForTests({ CLERK_SECRET_KEY: "sk_test_provision", CLERK_API_URL: `http://127.0.0.1:${(bapi.address() as AddressInfo).port}` });
  testDb = await createTestDb();
});

afterAll(async () => {
  setEnvForTests({ CLERK_SECRET_KEY: undefined, CLERK_API_URL: undefined });
  await testDb.cleanup();
  await new Promise((r) => bapi.close(r));
});

describe("provisionClerkUser (a Clerk user's first request before the identity webhook)", () => {
  it("creates the user from the session token's profile claims, without calling Clerk", async () => {
    const before = bapiRequests.length;
    const ok = await provisionClerkUser(testDb.db, {
      userId: "user_2fromClaims",
      claims: { email: "claims.person@example.test", email_verified: true, first_name: "Claims", last_name: "Person" },
    });
    expect(ok).toBe(true);
    expect(bapiRequests.length).toBe(before);
    const principal = await resolvePrincipal(testDb.db, "user_2fromClaims");
    expect(principal.user).toMatchObject({ email: "claims.person@example.test", name: "Claims Person", authProvider: "clerk" });
  });

  it("reads the profile from Clerk's Backend API when the token carries none", async () => {
    const ok = await provisionClerkUser(testDb.db, { userId: "user_2fromApi", claims: { sid: "sess_1" } });
    expect(ok).toBe(true);
    expect(bapiRequests.at(-1)).toEqual({ url: "/v1/users/user_2fromApi", authorization: "Bearer sk_test_provision" });
    const principal = await resolvePrincipal(testDb.db, "user_2fromApi");
    expect(principal.user).toMatchObject({ email: "api.person@example.test", name: "Api Person", authProvider: "clerk" });
  });

  it("links an invited user by verified email, keeping the row (and its memberships)", async () => {
    const [invited] = await testDb.db
      .insert(users)
      .values({ email: "invited.clerk@example.test", name: "Typed by inviter", authProvider: "clerk", authSubject: null })
      .returning();
    const ok = await provisionClerkUser(testDb.db, {
      userId: "user_2invited",
      claims: { email: "Invited.Clerk@example.test", email_verified: true, first_name: "Ivy" },
    });
    expect(ok).toBe(true);
    const [row] = await testDb.db.select().from(users).where(eq(users.id, invited!.id));
    expect(row).toMatchObject({ authSubject: "user_2invited", name: "Ivy" });
  });

  it("does not link an invited user through an unverified email, and leaves the session signed out", async () => {
    await testDb.db.insert(users).values({ email: "unverified@example.test", name: "Invitee", authProvider: "clerk", authSubject: null });
    const ok = await provisionClerkUser(testDb.db, {
      userId: "user_2unverified",
      claims: { email: "unverified@example.test", email_verified: false },
    });
    expect(ok).toBe(false);
    const [row] = await testDb.db.select().from(users).where(eq(users.email, "unverified@example.test"));
    expect(row!.authSubject).toBeNull();
  });

  it("does not take over another user's email", async () => {
    await testDb.db.insert(users).values({ email: "local.owner@example.test", name: "Local", authSubject: "local|local.owner@example.test" });
    const ok = await provisionClerkUser(testDb.db, {
      userId: "user_2thief",
      claims: { email: "local.owner@example.test", email_verified: true },
    });
    expect(ok).toBe(false);
    await expect(resolvePrincipal(testDb.db, "user_2thief")).rejects.toMatchObject({ status: 401 });
  });
});
