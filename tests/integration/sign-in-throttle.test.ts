import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { POST as nextAuthPost } from "@/app/api/auth/[...nextauth]/route";
import { POST as tokenPost } from "@/app/api/auth/token/route";
import { authThrottles, users } from "@/db/schema";
import { createApiKey } from "@/lib/api-keys/create-api-key";
import { apiKeyExchangeRules, passwordSignInRules } from "@/lib/auth/auth-throttle-rules";
import { createSessionCookie } from "@/lib/sign-in/create-session-cookie";
import { getSessionPrincipal } from "@/lib/sign-in/get-session-principal";
import { recordAuthFailure } from "@/lib/auth/record-auth-failure";
import { signInWithPasswordThrottled } from "@/lib/sign-in/sign-in-with-password-throttled";
import { setEnvForTests } from "@/lib/env";
import { DEMO_PASSWORD, seedDemo } from "@/lib/seed/seed-demo";
import { createTestDb, type TestDb } from "@/tests/helpers/db";

let testDb: TestDb;

beforeAll(async () => {
  testDb = await createTestDb();
  await seedDemo(testDb.db);
  // These requests are built in-process, with no socket: the client is the entry one trusted proxy wrote.
  setEnvForTests({ TRUSTED_PROXY_HOPS: "1" });
});

afterAll(async () => {
  setEnvForTests({});
  await testDb.cleanup();
});

/** Attempts with a recorded (not waited) delay. */
function attempt(email: string, password: string, clientIp: string, delays: number[] = [], now?: Date) {
  return signInWithPasswordThrottled(testDb.db, { email, password, clientIp, now, wait: async (ms) => void delays.push(ms) });
}

const ErrorBody = z.strictObject({ error: z.string() });

describe("failed password throttling", () => {
  it("slows an account after 3 failures and refuses it for 15 minutes at the 10th, even with the right password", async () => {
    const delays: number[] = [];
    const results = [];
    for (let i = 0; i < 10; i++) results.push(await attempt("manager@demo.local", "wrong", `198.51.100.${i}`, delays));
    expect(results.slice(0, 9).every((r) => r.status === "invalid")).toBe(true);
    expect(results[9]).toEqual({ status: "refused", retryAfterSeconds: 900 });
    expect(delays).toEqual([500, 1000, 1500, 2000, 2500, 3000]);

    const right = await attempt("Manager@Demo.local", DEMO_PASSWORD, "198.51.100.99");
    expect(right.status).toBe("refused");
    expect(right.status === "refused" && right.retryAfterSeconds).toBeGreaterThan(890);

    const later = new Date(Date.now() + 16 * 60 * 1000);
    expect((await attempt("manager@demo.local", DEMO_PASSWORD, "198.51.100.99", [], later)).status).toBe("signed-in");
  });

  it("a successful sign-in clears the account's count", async () => {
    const delays: number[] = [];
    for (let i = 0; i < 5; i++) await attempt("signer@demo.local", "wrong", "192.0.2.10", delays);
    expect(delays).toEqual([500]);
    expect((await attempt("signer@demo.local", DEMO_PASSWORD, "192.0.2.11")).status).toBe("signed-in");
    const rows = await testDb.db.select().from(authThrottles).where(eq(authThrottles.key, "account:signer@demo.local"));
    expect(rows).toEqual([]);
    const after: number[] = [];
    await attempt("signer@demo.local", "wrong", "192.0.2.12", after);
    expect(after).toEqual([]);
  });

  it("refuses one client trying many accounts after 50 failures, while other clients still get in", async () => {
    const rules = passwordSignInRules({ email: "x@example.test", clientIp: "203.0.113.50" });
    for (let i = 0; i < 49; i++) await recordAuthFailure(testDb.db, { rules: [rules[1]!] });
    const fiftieth = await attempt(`nobody-50@example.test`, "wrong", "203.0.113.50");
    expect(fiftieth).toEqual({ status: "refused", retryAfterSeconds: 900 });
    expect((await attempt("owner@demo.local", DEMO_PASSWORD, "203.0.113.50")).status).toBe("refused");
    expect((await attempt("owner@demo.local", DEMO_PASSWORD, "203.0.113.51")).status).toBe("signed-in");
  });

  it("counts concurrent failures atomically", async () => {
    const rules = passwordSignInRules({ email: "race@example.test", clientIp: "203.0.113.77" });
    await Promise.all(Array.from({ length: 12 }, () => recordAuthFailure(testDb.db, { rules })));
    const [row] = await testDb.db.select().from(authThrottles).where(eq(authThrottles.key, "account:race@example.test"));
    expect(row!.failures).toBe(12);
    expect(row!.lockedUntil).toBeInstanceOf(Date);
  });

  it("answers next-auth's credentials callback with 429 and Retry-After while the account is locked", async () => {
    const rules = passwordSignInRules({ email: "locked@example.test", clientIp: "203.0.113.90" });
    for (let i = 0; i < 10; i++) await recordAuthFailure(testDb.db, { rules: [rules[0]!] });
    const response = await nextAuthPost(
      new Request("http://localhost:3000/api/auth/callback/credentials", {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", "x-forwarded-for": "203.0.113.91" },
        body: new URLSearchParams({ email: "Locked@example.test", password: "x", csrfToken: "t" }),
      }),
      { params: Promise.resolve({ nextauth: ["callback", "credentials"] }) },
    );
    expect(response.status).toBe(429);
    expect(Number(response.headers.get("retry-after"))).toBeGreaterThan(890);
    expect(ErrorBody.parse(await response.json()).error).toBe("Too many attempts, try again in 15 minutes.");
  });
});

describe("POST /api/auth/token throttling", () => {
  const post = (apiKey: string, ip: string) =>
    tokenPost(
      new Request("http://localhost:3000/api/auth/token", {
        method: "POST",
        headers: { "content-type": "application/json", "x-forwarded-for": ip },
        body: JSON.stringify({ apiKey }),
      }),
    );

  it("answers 429 with Retry-After once a client reached 20 failed keys, for good keys too; other clients are unaffected", async () => {
    const [manager] = await testDb.db.select().from(users).where(eq(users.email, "manager@demo.local"));
    const { key } = await createApiKey(testDb.db, { userId: manager!.id, name: "throttle" });
    const rules = apiKeyExchangeRules({ clientIp: "198.18.0.1" });
    for (let i = 0; i < 19; i++) await recordAuthFailure(testDb.db, { rules });

    const twentieth = await post(`csk_${"B".repeat(43)}`, "198.18.0.1");
    expect(twentieth.status).toBe(429);
    expect(twentieth.headers.get("retry-after")).toBe("900");
    expect(ErrorBody.parse(await twentieth.json()).error).toBe("Too many attempts, try again in 15 minutes.");

    const good = await post(key, "198.18.0.1");
    expect(good.status).toBe(429);
    expect(Number(good.headers.get("retry-after"))).toBeGreaterThan(0);

    expect((await post(key, "198.18.0.2")).status).toBe(200);
  }, 20_000);
});

describe("the session cookie set by the sign-in action", () => {
  it("is next-auth's own cookie: next-auth reads it back as the user's session", async () => {
    const [signer] = await testDb.db.select().from(users).where(eq(users.email, "signer@demo.local"));
    const cookie = await createSessionCookie({ user: signer! });
    expect(cookie.name).toBe("next-auth.session-token");
    expect(cookie.options).toEqual({ httpOnly: true, sameSite: "lax", path: "/", secure: false, maxAge: 8 * 60 * 60 });
    const request = new Request("http://localhost:3000/api/bank/status", { headers: { cookie: `${cookie.name}=${cookie.value}` } });
    const principal = await getSessionPrincipal(testDb.db, { request });
    expect(principal?.user).toMatchObject({ id: signer!.id, email: signer!.email, name: signer!.name });
  });
});
