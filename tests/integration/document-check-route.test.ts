import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as checkRoute } from "@/app/api/documents/check/route";
import { users } from "@/db/schema";
import { renderAgreementPdf } from "@/lib/pdf/pdf";
import { sessionCookieFor } from "@/tests/helpers/bank";
import { createTestDb, type TestDb } from "@/tests/helpers/db";
import { loadDemoWorld } from "@/tests/helpers/fixtures";
import { inRequestScope } from "@/tests/helpers/next-request-scope";

// POST /api/documents/check: the package form's PDF check (progress in the browser), by the /v1
// upload rules and messages, for a signed-in person who may change packages.

const check = inRequestScope(checkRoute);

let testDb: TestDb;
const cookies: Record<string, string> = {};

function request(body: BodyInit | null, options: { cookie?: string; origin?: string | null; headers?: Record<string, string> } = {}) {
  const headers = new Headers({ "content-type": "application/pdf", ...options.headers });
  if (options.cookie) headers.set("cookie", options.cookie);
  const origin = options.origin === undefined ? "http://localhost:3000" : options.origin;
  if (origin !== null) headers.set("origin", origin);
  return new Request("http://localhost:3000/api/documents/check", { method: "POST", headers, body });
}

beforeAll(async () => {
  testDb = await createTestDb();
  await loadDemoWorld(testDb.db);
  for (const email of ["manager@demo.local", "admin@demo.local"]) {
    const [user] = await testDb.db.select().from(users).where(eq(users.email, email));
    cookies[email] = await sessionCookieFor(user!);
  }
});

afterAll(async () => {
  await testDb.cleanup();
});

describe("POST /api/documents/check", () => {
  it("answers a PDF's page count and stores nothing", async () => {
    const pdf = await renderAgreementPdf({ title: "Check", parties: ["Buyer"], pages: 3 });
    const response = await check(request(Buffer.from(pdf), { cookie: cookies["manager@demo.local"] }));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ pageCount: 3, sizeBytes: pdf.byteLength });
  });

  it("refuses what /v1 refuses, with its messages", async () => {
    const cookie = cookies["manager@demo.local"];
    const notPdf = await check(request("hello, not a pdf", { cookie }));
    expect([notPdf.status, await notPdf.json()]).toEqual([400, { error: "The uploaded file is not a readable PDF." }]);
    const empty = await check(request(new Uint8Array(0), { cookie }));
    expect([empty.status, await empty.json()]).toEqual([400, { error: "The uploaded file is empty." }]);
    // A browser declares the size: refused before the body is read, in the upload rule's words.
    const big = new Uint8Array(11 * 1024 * 1024);
    const tooBig = await check(request(big, { cookie, headers: { "content-length": String(big.byteLength) } }));
    expect([tooBig.status, await tooBig.json()]).toEqual([413, { error: "The upload exceeds the 10 MiB limit." }]);
    // Without a length, the stream is cut at the cap.
    const streamed = await check(request(big, { cookie }));
    expect(streamed.status).toBe(413);
  });

  it("needs a session with signings:write, from our own origin", async () => {
    const pdf = Buffer.from(await renderAgreementPdf({ title: "Check", parties: ["Buyer"], pages: 1 }));
    const anonymous = await check(request(pdf));
    expect([anonymous.status, await anonymous.json()]).toEqual([401, { error: "Sign in to upload documents." }]);
    const admin = await check(request(pdf, { cookie: cookies["admin@demo.local"] }));
    expect([admin.status, await admin.json()]).toEqual([403, { error: "You do not have permission to change documents." }]);
    const foreign = await check(request(pdf, { cookie: cookies["manager@demo.local"], origin: "https://evil.example" }));
    expect([foreign.status, await foreign.json()]).toEqual([403, { error: "Cross-site request refused." }]);
  });
});
