import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { jobs, packageSigners, signingPackages } from "@/db/schema";
import { callApi, tokenFor } from "../helpers/api";
import { createTestDb, type TestDb } from "../helpers/db";
import { auditEntriesFor, loadDemoWorld, type DemoWorld } from "../helpers/fixtures";
import { ErrorBody } from "../helpers/schemas";
import { createSignerPackage, getDemoPackage, signerSideCounts } from "../helpers/signing-fixtures";

const BASE = "/v1/signing/signer/signings";
const Iso = z.iso.datetime();
const SignerStatus = z.enum(["pending", "notified", "viewed", "signed", "declined"]);
const Me = z.strictObject({ signerId: z.uuid(), role: z.enum(["signer", "co_signer"]), routingOrder: z.number().int(), status: SignerStatus });
const ListItem = z.strictObject({
  id: z.uuid(),
  organizationId: z.number().int(),
  title: z.string(),
  status: z.enum(["sent", "in_progress", "completed", "cancelled", "declined", "expired"]),
  sentAt: Iso.nullable(),
  completedAt: Iso.nullable(),
  createdAt: Iso,
  updatedAt: Iso,
  me: Me,
});
const ListPage = z.strictObject({ data: z.array(ListItem), nextCursor: z.string().nullable() });
const Detail = z.strictObject({
  id: z.uuid(),
  organizationId: z.number().int(),
  title: z.string(),
  message: z.string().nullable(),
  status: z.enum(["draft", "sent", "in_progress", "completed", "cancelled", "declined", "expired"]),
  sentAt: Iso.nullable(),
  completedAt: Iso.nullable(),
  cancelledAt: Iso.nullable(),
  declinedAt: Iso.nullable(),
  expiresAt: Iso.nullable(),
  createdAt: Iso,
  updatedAt: Iso,
  me: Me.extend({
    name: z.string(),
    email: z.string(),
    notifiedAt: Iso.nullable(),
    viewedAt: Iso.nullable(),
    signedAt: Iso.nullable(),
    declinedAt: Iso.nullable(),
  }).strict(),
  documents: z.array(
    z.strictObject({
      id: z.uuid(),
      name: z.string(),
      contentType: z.literal("application/pdf"),
      pageCount: z.number().int().positive(),
      sizeBytes: z.number().int().positive(),
      sha256: z.string().regex(/^[0-9a-f]{64}$/),
      position: z.number().int(),
      executionMode: z.enum(["esign", "wet_sign", "notarize", "review_only"]),
      executionStatus: z.enum(["pending", "esigned", "scan_uploaded", "accepted", "rejected", "acknowledged"]),
      signatureRequests: z.array(
        z.strictObject({
          id: z.uuid(),
          required: z.boolean(),
          status: z.enum(["pending", "signed", "declined"]),
          signedAt: Iso.nullable(),
          eSignatureId: z.uuid().nullable(),
        }),
      ),
    }),
  ),
  coSigners: z.array(
    z.strictObject({ id: z.uuid(), name: z.string(), role: z.enum(["signer", "co_signer"]), routingOrder: z.number().int(), status: SignerStatus }),
  ),
});

let testDb: TestDb;
let world: DemoWorld;
let demo: Awaited<ReturnType<typeof getDemoPackage>>;

beforeAll(async () => {
  testDb = await createTestDb();
  world = await loadDemoWorld(testDb.db);
  demo = await getDemoPackage(testDb.db);
});
afterAll(() => testDb.cleanup());

const get = async (email: string, path: string, headers?: Record<string, string>) => callApi(path, { token: await tokenFor(email), headers });
const post = async (email: string, path: string, json: unknown) => callApi(path, { method: "POST", token: await tokenFor(email), json });

describe("GET /v1/signing/signer/signings", () => {
  it("lists the packages I am a signer on, never drafts, with my signer status", async () => {
    await createSignerPackage(testDb.db, { location: world.austin, signers: [{ email: "signer@demo.local" }], status: "draft" });
    const res = await get("signer@demo.local", BASE);
    expect(res.status).toBe(200);
    const page = ListPage.parse(res.body);
    expect(page.data.map((p) => p.id)).toEqual([demo.id]);
    expect(page.data[0]!.me).toMatchObject({ role: "signer", routingOrder: 1 });
    expect(page.nextCursor).toBeNull();
  });

  it("paginates newest first with an opaque cursor and filters by status", async () => {
    const email = "pager@demo.local";
    const made = [];
    for (let i = 0; i < 5; i++) made.push(await createSignerPackage(testDb.db, { location: world.dallas, signers: [{ email }] }));
    await testDb.db.update(signingPackages).set({ status: "completed" }).where(eq(signingPackages.id, made[1]!.id));
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res = await get(email, `${BASE}?limit=2${cursor ? `&cursor=${cursor}` : ""}`);
      expect(res.status).toBe(200);
      const page = ListPage.parse(res.body);
      expect(page.data.length).toBeLessThanOrEqual(2);
      seen.push(...page.data.map((p) => p.id));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toEqual(made.map((m) => m.id).reverse());
    const completed = ListPage.parse((await get(email, `${BASE}?status=completed`)).body);
    expect(completed.data.map((p) => p.id)).toEqual([made[1]!.id]);
  });

  it.each([
    ["limit=0"],
    ["limit=101"],
    ["limit=abc"],
    ["status=draft"],
    ["status=bogus"],
    ["cursor=not-a-cursor"],
  ])("400 for ?%s", async (query) => {
    const res = await get("signer@demo.local", `${BASE}?${query}`);
    expect(res.status).toBe(400);
    ErrorBody.parse(res.body);
  });

  it("managers and admins who are not signers get an empty list", async () => {
    for (const email of ["manager@demo.local", "owner@demo.local", "admin@demo.local", "manager@other.local"]) {
      const res = await get(email, BASE);
      expect(res.status).toBe(200);
      expect(ListPage.parse(res.body).data).toEqual([]);
    }
  });

  it("401 without a token", async () => {
    const res = await callApi(BASE);
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: "Missing Authorization Bearer token." });
  });
});

describe("GET /v1/signing/signer/signings/{id}", () => {
  it("shows documents, my requests, co-signers without contact details, and marks me viewed once", async () => {
    const res = await get("cosigner@demo.local", `${BASE}/${demo.id}`);
    expect(res.status).toBe(200);
    const body = Detail.parse(res.body);
    expect(body.me).toMatchObject({ email: "cosigner@demo.local", role: "co_signer", status: "viewed" });
    expect(body.me.viewedAt).not.toBeNull();
    expect(body.documents).toHaveLength(1);
    expect(body.documents[0]).toMatchObject({ id: demo.document.id, sha256: demo.document.sha256, pageCount: demo.document.pageCount });
    expect(body.documents[0]!.signatureRequests).toHaveLength(1);
    expect(body.documents[0]!.signatureRequests[0]).toMatchObject({ status: "pending", required: true, eSignatureId: null });
    expect(body.coSigners).toEqual([expect.objectContaining({ name: "Sam Signer", role: "signer", routingOrder: 1 })]);
    expect(res.text).not.toContain('"signer@demo.local"');
    expect(JSON.stringify(body.coSigners)).not.toMatch(/@/);

    const viewed = (await auditEntriesFor(testDb.db, demo.id)).filter((e) => e.action === "signer.viewed");
    expect(viewed).toHaveLength(1);
    expect(viewed[0]).toMatchObject({ entityId: body.me.signerId, before: { status: "notified" }, after: { status: "viewed" } });

    const again = await get("cosigner@demo.local", `${BASE}/${demo.id}`);
    expect(Detail.parse(again.body).me.viewedAt).toBe(body.me.viewedAt);
    expect((await auditEntriesFor(testDb.db, demo.id)).filter((e) => e.action === "signer.viewed")).toHaveLength(1);
  });

  it("a pending signer of a later routing group is marked viewed from pending", async () => {
    const pkg = await createSignerPackage(testDb.db, {
      location: world.austin,
      signers: [{ email: "first@demo.local" }, { email: "second@demo.local", routingOrder: 2 }],
    });
    const body = Detail.parse((await get("second@demo.local", `${BASE}/${pkg.id}`)).body);
    expect(body.me.status).toBe("viewed");
    expect(body.coSigners).toEqual([expect.objectContaining({ routingOrder: 1, status: "notified" })]);
  });

  it("does not mark a signer viewed on a closed package", async () => {
    const pkg = await createSignerPackage(testDb.db, { location: world.austin, signers: [{ email: "closed@demo.local" }], status: "cancelled" });
    const trail = (await auditEntriesFor(testDb.db, pkg.id)).length;
    const body = Detail.parse((await get("closed@demo.local", `${BASE}/${pkg.id}`)).body);
    expect(body).toMatchObject({ status: "cancelled", me: { status: "notified" } });
    expect(await auditEntriesFor(testDb.db, pkg.id)).toHaveLength(trail);
  });

  describe("role matrix on the demo package", () => {
    it.each([
      ["signer@demo.local", 200],
      ["cosigner@demo.local", 200],
      ["manager@demo.local", 404],
      ["owner@demo.local", 404],
      ["admin@demo.local", 404],
      ["manager@other.local", 404],
    ])("%s → %i", async (email, status) => {
      const res = await get(email, `${BASE}/${demo.id}`);
      expect(res.status).toBe(status);
      if (status === 200) Detail.parse(res.body);
      else ErrorBody.parse(res.body);
    });
  });

  it("404 for a draft, a missing id and a malformed id, all alike", async () => {
    const draft = await createSignerPackage(testDb.db, { location: world.austin, signers: [{ email: "signer@demo.local" }], status: "draft" });
    const before = await signerSideCounts(testDb.db, draft.id);
    for (const id of [draft.id, "01934b7e-8f3a-7c2d-9e4f-1a2b3c4d5e6f", "not-a-uuid", "1"]) {
      const res = await get("signer@demo.local", `${BASE}/${id}`);
      expect(res.status).toBe(404);
      expect(ErrorBody.parse(res.body).error).toMatch(/^Signing package .* not found\.$/);
    }
    expect(await signerSideCounts(testDb.db, draft.id)).toEqual(before);
  });
});

describe("GET /v1/signing/signer/signings/{id}/documents/{docId}/file", () => {
  it("serves the PDF inline with the SHA-256 as ETag, and 304 on If-None-Match", async () => {
    const path = `${BASE}/${demo.id}/documents/${demo.document.id}/file`;
    const res = await callApi(path, { token: await tokenFor("signer@demo.local") });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/pdf");
    expect(res.headers.get("content-disposition")).toMatch(/^inline; filename="Retail Installment Contract.pdf"/);
    expect(res.headers.get("etag")).toBe(`"${demo.document.sha256}"`);
    expect(res.text.startsWith("%PDF-")).toBe(true);
    const cached = await get("signer@demo.local", path, { "if-none-match": `"${demo.document.sha256}"` });
    expect(cached.status).toBe(304);
    expect(cached.text).toBe("");
  });

  it.each([
    ["manager@demo.local", 404],
    ["admin@demo.local", 404],
    ["manager@other.local", 404],
    ["cosigner@demo.local", 200],
  ])("%s → %i", async (email, status) => {
    const res = await get(email, `${BASE}/${demo.id}/documents/${demo.document.id}/file`);
    expect(res.status).toBe(status);
    if (status !== 200) ErrorBody.parse(res.body);
  });

  it("404 for a document of another package or a malformed document id", async () => {
    const other = await createSignerPackage(testDb.db, { location: world.austin, signers: [{ email: "elsewhere@demo.local" }] });
    for (const docId of [other.documents[0]!.id, "x"]) {
      const res = await get("signer@demo.local", `${BASE}/${demo.id}/documents/${docId}/file`);
      expect(res.status).toBe(404);
      ErrorBody.parse(res.body);
    }
  });
});

describe("POST /v1/signing/signer/signings/{id}/decline", () => {
  it("declines: signer and package declined, reason stored, audited", async () => {
    const pkg = await createSignerPackage(testDb.db, {
      location: world.austin,
      signers: [{ email: "decliner@demo.local" }, { email: "other-signer@demo.local" }],
    });
    const trail = (await auditEntriesFor(testDb.db, pkg.id)).length;
    const res = await post("decliner@demo.local", `${BASE}/${pkg.id}/decline`, { reason: "  The rate is wrong.  " });
    expect(res.status).toBe(200);
    const body = Detail.parse(res.body);
    expect(body).toMatchObject({ status: "declined", me: { status: "declined" } });
    const [signer] = await testDb.db.select().from(packageSigners).where(eq(packageSigners.id, body.me.signerId));
    expect(signer).toMatchObject({ status: "declined", declineReason: "The rate is wrong." });
    expect(body.documents[0]!.signatureRequests.map((r) => r.status)).toEqual(["declined"]);
    const actions = (await auditEntriesFor(testDb.db, pkg.id)).slice(trail).map((e) => e.action);
    expect(actions).toEqual(["signer.declined", "signing.declined"]);
    // The package's creator (the fixture's organization manager) is told, once.
    const notices = await testDb.db.select().from(jobs).where(eq(jobs.idempotencyKey, `signing-declined:${pkg.id}`));
    expect(notices).toHaveLength(1);
    expect(notices[0]!.payload).toMatchObject({
      to: "manager@demo.local",
      subject: "Declined: Fixture package",
      text: expect.stringContaining("Reason: The rate is wrong."),
      html: expect.stringContaining(`/signings/${pkg.id}"`),
    });

    const again = await post("decliner@demo.local", `${BASE}/${pkg.id}/decline`, { reason: "again" });
    expect(again.status).toBe(409);
    ErrorBody.parse(again.body);
    const byOther = await post("other-signer@demo.local", `${BASE}/${pkg.id}/decline`, { reason: "me too" });
    expect(byOther.status).toBe(409);
  });

  it.each(["draft", "completed", "cancelled", "expired"] as const)("409 on a %s package, nothing changes", async (status) => {
    const pkg = await createSignerPackage(testDb.db, { location: world.austin, signers: [{ email: `decline-${status}@demo.local` }], status });
    const before = await signerSideCounts(testDb.db, pkg.id);
    const res = await post(`decline-${status}@demo.local`, `${BASE}/${pkg.id}/decline`, { reason: "no" });
    expect(res.status).toBe(409);
    ErrorBody.parse(res.body);
    expect(await signerSideCounts(testDb.db, pkg.id)).toEqual(before);
  });

  it.each([
    ["missing reason", {}],
    ["empty reason", { reason: "   " }],
    ["overlong reason", { reason: "x".repeat(1001) }],
    ["non-string reason", { reason: 5 }],
    ["unknown field", { reason: "ok", extra: true }],
    ["null body", null],
  ])("400 for %s, nothing changes", async (_, body) => {
    const before = await signerSideCounts(testDb.db, demo.id);
    const res = await post("signer@demo.local", `${BASE}/${demo.id}/decline`, body);
    expect(res.status).toBe(400);
    ErrorBody.parse(res.body);
    expect(await signerSideCounts(testDb.db, demo.id)).toEqual(before);
  });

  it.each(["manager@demo.local", "owner@demo.local", "admin@demo.local", "manager@other.local"])(
    "%s is not a signer: 404, nothing changes",
    async (email) => {
      const before = await signerSideCounts(testDb.db, demo.id);
      const res = await post(email, `${BASE}/${demo.id}/decline`, { reason: "not mine" });
      expect(res.status).toBe(404);
      ErrorBody.parse(res.body);
      expect(await signerSideCounts(testDb.db, demo.id)).toEqual(before);
    },
  );
});

describe("OpenAPI", () => {
  it("documents every signer operation", async () => {
    const res = await get("signer@demo.local", "/v1/openapi.json");
    const paths = (res.body as { paths: Record<string, Record<string, unknown>> }).paths;
    expect(Object.keys(paths[BASE]!)).toContain("get");
    expect(Object.keys(paths[`${BASE}/{id}`]!)).toContain("get");
    expect(Object.keys(paths[`${BASE}/{id}/documents/{docId}/file`]!)).toContain("get");
    expect(Object.keys(paths[`${BASE}/{id}/documents/{docId}/esignatures`]!)).toContain("post");
    expect(Object.keys(paths[`${BASE}/{id}/decline`]!)).toContain("post");
    expect(Object.keys(paths["/v1/signing/signer/esignatures"]!)).toContain("get");
    expect(Object.keys(paths["/v1/signing/manager/signings/{id}/audit"]!)).toContain("get");
  });
});
