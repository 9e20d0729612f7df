import { eq } from "drizzle-orm";
import { createRequire } from "node:module";
import { NextRequest, type NextFetchEvent } from "next/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { memberships, users } from "@/db/schema";
import { setEnvForTests } from "@/lib/env";
import { clerkKeys, clerkToken } from "@/tests/helpers/clerk";
import { createTestDb, type TestDb } from "@/tests/helpers/db";
import { loadDemoWorld, type DemoWorld } from "@/tests/helpers/fixtures";
import { inNextRequestScope } from "@/tests/helpers/next-request-scope";

// A Clerk sign-in through the real proxy.ts (Clerk's own clerkMiddleware, networkless with the test
// CLERK_JWT_KEY) and a real session route: the person's pending workspace invitations are accepted,
// as a password sign-in accepts them.

const ORIGIN = "http://localhost:3000";
// Clerk's auth() requires `server-only`, which throws outside Next's react-server bundles (vitest runs
// plain Node). Next resolves it to an empty module on the server; so does this test.
{
  const clerkRequire = createRequire(createRequire(import.meta.url).resolve("@clerk/nextjs"));
  const serverOnly = clerkRequire.resolve("server-only");
  clerkRequire.cache[serverOnly] = { id: serverOnly, filename: serverOnly, loaded: true, exports: {} } as NodeJS.Module;
}
// next/server exports NextFetchEvent as a type only; Next builds one per request from this class.
const { NextFetchEvent: FetchEventClass } = createRequire(import.meta.url)("next/dist/server/web/spec-extension/fetch-event") as {
  NextFetchEvent: new (params: { request: NextRequest; page: string; context: { waitUntil: (promise: Promise<unknown>) => void } }) => NextFetchEvent;
};
const CLERK_ENV = {
  CLERK_SECRET_KEY: "sk_live_invitations_not_a_real_key",
  NEXT_PUBLIC_CLERK_PUBLISHABLE_KEY: `pk_live_${Buffer.from("clerk.example.test$").toString("base64")}`,
  CLERK_JWT_KEY: clerkKeys.publicPem,
  CLERK_API_URL: "http://127.0.0.1:9",
  CLERK_AUTHORIZED_PARTIES: ORIGIN,
  APP_URL: ORIGIN,
  PLAID_CLIENT_ID: "invitations-client",
  PLAID_SECRET: "invitations-secret",
  PLAID_BASE_URL: "http://127.0.0.1:9",
};

let testDb: TestDb;
let world: DemoWorld;
let saved: Record<string, string | undefined>;

beforeAll(async () => {
  // @clerk/nextjs reads its keys from process.env when it loads.
  saved = Object.fromEntries(Object.keys(CLERK_ENV).map((name) => [name, process.env[name]]));
  Object.assign(process.env, CLERK_ENV);
  setEnvForTests(CLERK_ENV);
  testDb = await createTestDb();
  world = await loadDemoWorld(testDb.db);
});

afterAll(async () => {
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  setEnvForTests({});
  await testDb.cleanup();
});

/** GET `path` as the browser would with Clerk's cookies: proxy.ts first, then the route with the headers it added. */
async function getWithClerkSession(path: string, sub: string, sid: string): Promise<Response> {
  const { proxy } = await import("@/proxy");
  const { GET } = await import("@/app/api/bank/status/route");
  const now = Math.floor(Date.now() / 1000);
  const token = await clerkToken({ sub, azp: ORIGIN, iat: now - 5, claims: { sid } });
  const headers = new Headers({ cookie: `__session=${token}; __client_uat=${now - 5}` });
  const incoming = new NextRequest(`${ORIGIN}${path}`, { headers });
  const proxied = await proxy(incoming, new FetchEventClass({ request: incoming, page: path, context: { waitUntil: () => {} } }));
  expect(proxied.headers.get("x-middleware-next")).toBe("1");
  // What Next does with the proxy's request headers before it calls the route.
  const forwarded = new Headers(headers);
  for (const name of (proxied.headers.get("x-middleware-override-headers") ?? "").split(",").filter(Boolean)) {
    const value = proxied.headers.get(`x-middleware-request-${name}`);
    if (value === null) forwarded.delete(name);
    else forwarded.set(name, value);
  }
  const request = new Request(`${ORIGIN}${path}`, { headers: forwarded });
  return inNextRequestScope(request, () => GET(request));
}

describe("a Clerk sign-in", () => {
  it("accepts the person's pending invitations and records the sign-in, like a password sign-in", async () => {
    const [user] = await testDb.db
      .insert(users)
      .values({ email: "invited.clerk@example.test", name: "Invited Clerk", authProvider: "clerk", authSubject: "user_2invited" })
      .returning();
    const [invitation] = await testDb.db
      .insert(memberships)
      .values({
        userId: user!.id,
        role: "manager",
        organizationId: world.austin.organizationId,
        invitedEmail: "invited.clerk@example.test",
        invitedName: "Typed By The Inviter",
        acceptedAt: null,
      })
      .returning();
    expect(invitation!.acceptedAt).toBeNull();

    const response = await getWithClerkSession("/api/bank/status", "user_2invited", "sess_2invitations");
    expect(response.status).toBe(200);

    const [after] = await testDb.db.select().from(memberships).where(eq(memberships.id, invitation!.id));
    expect(after!.acceptedAt).toBeInstanceOf(Date);
    const [signedIn] = await testDb.db.select().from(users).where(eq(users.id, user!.id));
    expect(signedIn!.lastSignInAt).toBeInstanceOf(Date);
  });
});
