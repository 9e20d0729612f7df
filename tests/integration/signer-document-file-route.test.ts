import { createHash } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { users } from "@/db/schema";
import { createTestDb, type TestDb } from "@/tests/helpers/db";
import { loadDemoWorld, type DemoWorld } from "@/tests/helpers/fixtures";
import { createSignerPackage, getDemoPackage } from "@/tests/helpers/signing-fixtures";

// next-auth's getServerSession reads the cookie through next/headers, which only exists inside a Next
// request. The session lookup is replaced by "this user id is signed in"; everything after it (the
// user row, the principal, the package scope) is the real code against the real database.
const session = vi.hoisted(() => ({ userId: null as string | null }));
vi.mock("next-auth", async (importOriginal) => ({
  ...(await importOriginal<typeof import("next-auth")>()),
  getServerSession: async () => (session.userId ? { user: { id: session.userId, name: "", email: "" } } : null),
}));

const { GET } = await import("@/app/(signer)/signings/[id]/documents/[docId]/file/route");

let testDb: TestDb;
let world: DemoWorld;
let demo: Awaited<ReturnType<typeof getDemoPackage>>;

beforeAll(async () => {
  testDb = await createTestDb();
  world = await loadDemoWorld(testDb.db);
  demo = await getDemoPackage(testDb.db);
});

afterAll(async () => {
  await testDb.cleanup();
});

beforeEach(() => {
  session.userId = null;
});

async function signInAs(email: string) {
  const [user] = await testDb.db.select({ id: users.id }).from(users).where(eq(users.email, email));
  session.userId = user!.id;
}

function get(packageId: string, documentId: string, options: { query?: string; headers?: Record<string, string> } = {}) {
  const request = new Request(`http://localhost:3000/signings/${packageId}/documents/${documentId}/file${options.query ?? ""}`, {
    headers: options.headers,
  });
  return GET(request, { params: Promise.resolve({ id: packageId, docId: documentId }) });
}

describe("GET /signings/:id/documents/:docId/file (signer session)", () => {
  it("streams the original PDF inline with its sha256 as ETag and private, no-cache", async () => {
    await signInAs("signer@demo.local");
    const res = await get(demo.id, demo.document.id);
    expect(res.status).toBe(200);
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect(Buffer.from(bytes.subarray(0, 5)).toString("latin1")).toBe("%PDF-");
    expect(createHash("sha256").update(bytes).digest("hex")).toBe(demo.document.sha256);
    expect(res.headers.get("etag")).toBe(`"${demo.document.sha256}"`);
    expect(res.headers.get("cache-control")).toBe("private, no-cache");
    expect(res.headers.get("content-type")).toBe("application/pdf");
    expect(res.headers.get("content-length")).toBe(String(bytes.byteLength));
    expect(res.headers.get("content-disposition")).toBe(
      `inline; filename="Retail Installment Contract.pdf"; filename*=UTF-8''Retail%20Installment%20Contract.pdf`,
    );
  });

  it("answers 304 without a body when If-None-Match carries the current ETag (also weak or in a list)", async () => {
    await signInAs("cosigner@demo.local");
    for (const tag of [`"${demo.document.sha256}"`, `W/"${demo.document.sha256}"`, `"other", "${demo.document.sha256}"`]) {
      const res = await get(demo.id, demo.document.id, { headers: { "if-none-match": tag } });
      expect(res.status).toBe(304);
      expect(res.headers.get("etag")).toBe(`"${demo.document.sha256}"`);
      expect(res.headers.get("cache-control")).toBe("private, no-cache");
      expect(await res.text()).toBe("");
    }
    const stale = await get(demo.id, demo.document.id, { headers: { "if-none-match": '"0000"' } });
    expect(stale.status).toBe(200);
  });

  it("sends it as an attachment with ?download=1 and refuses other download values with 400", async () => {
    await signInAs("signer@demo.local");
    const res = await get(demo.id, demo.document.id, { query: "?download=1" });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-disposition")).toMatch(/^attachment; filename="Retail Installment Contract\.pdf"/);
    const bad = await get(demo.id, demo.document.id, { query: "?download=yes" });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({ error: "Query parameter download must be 0 or 1." });
  });

  it("answers 404 JSON outside the signer's scope: someone else's package, a document of another package, a draft, bad ids", async () => {
    await signInAs("signer@demo.local");
    const other = await createSignerPackage(testDb.db, { location: world.dallas, signers: [{ email: "someone-else@demo.local" }] });
    const mine = await createSignerPackage(testDb.db, { location: world.austin, signers: [{ email: "signer@demo.local" }], status: "draft" });
    const cases: [string, string][] = [
      [other.id, other.documents[0]!.id],
      [demo.id, other.documents[0]!.id],
      [mine.id, mine.documents[0]!.id],
      ["not-a-uuid", demo.document.id],
      [demo.id, "not-a-uuid"],
    ];
    for (const [packageId, documentId] of cases) {
      const res = await get(packageId, documentId);
      expect(res.status, `${packageId}/${documentId}`).toBe(404);
      expect(res.headers.get("content-type")).toMatch(/^application\/json/);
      expect(Object.keys((await res.json()) as object)).toEqual(["error"]);
    }
  });

  it("serves the package's managers too (drafts included), and 404 to a manager of another organization", async () => {
    const draft = await createSignerPackage(testDb.db, { location: world.austin, signers: [{ email: "file-manager-view@demo.local" }], status: "draft" });
    await signInAs("manager@demo.local");
    for (const [packageId, documentId] of [
      [demo.id, demo.document.id],
      [draft.id, draft.documents[0]!.id],
    ] as const) {
      const res = await get(packageId, documentId);
      expect(res.status, packageId).toBe(200);
      expect(res.headers.get("content-type")).toBe("application/pdf");
    }
    await signInAs("manager@other.local");
    const refused = await get(demo.id, demo.document.id);
    expect(refused.status).toBe(404);
    expect(Object.keys((await refused.json()) as object)).toEqual(["error"]);
  });

  it("answers 401 JSON when nobody is signed in", async () => {
    const res = await get(demo.id, demo.document.id);
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: "Sign in to view this document." });
  });
});
