import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { eq, sql } from "drizzle-orm";
import fc from "fast-check";
import { auditLog, chattelDocuments, signingPackages } from "@/db/schema";
import { callApi, tokenFor } from "../helpers/api";
import { createTestDb, type TestDb } from "../helpers/db";
import { createUser, loadDemoWorld, type DemoWorld } from "../helpers/fixtures";
import { ErrorBody, pageOf } from "../helpers/schemas";

const Contact = z.strictObject({ name: z.string().nullable(), email: z.string() });
const Document = z.strictObject({
  id: z.uuid(),
  organizationId: z.number().int(),
  companyId: z.number().int().nullable(),
  locationId: z.number().int().nullable(),
  signingPackageId: z.uuid().nullable(),
  type: z.enum(["retail_installment_contract", "certificate_of_title", "manufacturer_certificate_of_origin", "bill_of_sale", "lien_release", "other"]),
  status: z.enum(["requested", "received", "under_review", "accepted", "rejected"]),
  title: z.string(),
  borrowerName: z.string().nullable(),
  borrowerEmail: z.string().nullable(),
  coBorrowers: z.array(Contact),
  dealerContacts: z.array(Contact),
  collateralMake: z.string().nullable(),
  collateralModel: z.string().nullable(),
  collateralYear: z.number().int().nullable(),
  collateralSerial: z.string().nullable(),
  notes: z.string().nullable(),
  createdByUserId: z.uuid().nullable(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});
const DocumentList = pageOf(Document);

let testDb: TestDb;
let world: DemoWorld;

beforeAll(async () => {
  testDb = await createTestDb();
  world = await loadDemoWorld(testDb.db);
  await createUser(testDb.db, "branch@demo.local", [
    { role: "manager", organizationId: world.austin.organizationId, companyId: world.austin.companyId, locationId: world.austin.id },
  ]);
});
afterAll(() => testDb.cleanup());

async function api(email: string, path: string, init: { method?: string; json?: unknown } = {}) {
  return callApi(path, { ...init, token: await tokenFor(email) });
}

async function countDocuments(): Promise<number> {
  const [row] = await testDb.db.select({ n: sql<number>`count(*)::int` }).from(chattelDocuments);
  return row!.n;
}

async function createDocument(email = "manager@demo.local", body: Record<string, unknown> = {}) {
  const res = await api(email, "/v1/documents", {
    method: "POST",
    json: { type: "certificate_of_title", title: "Title — Clayton 16x76", locationId: world.austin.id, ...body },
  });
  expect(res.status, res.text).toBe(201);
  return Document.parse(res.body);
}

describe("POST /v1/documents", () => {
  it("creates a document at a location with borrower, co-borrowers and collateral: 201", async () => {
    const before = await countDocuments();
    const doc = await createDocument("manager@demo.local", {
      borrowerName: "Sam Signer",
      borrowerEmail: "signer@demo.local",
      coBorrowers: [{ name: "Casey Cosigner", email: "cosigner@demo.local" }],
      dealerContacts: [{ email: "dealer@example.com" }],
      collateralMake: "Clayton",
      collateralModel: "16x76",
      collateralYear: 2019,
      collateralSerial: "CLA-123-TX",
    });
    expect(doc).toMatchObject({
      organizationId: world.austin.organizationId,
      companyId: world.austin.companyId,
      locationId: world.austin.id,
      status: "requested",
      dealerContacts: [{ name: null, email: "dealer@example.com" }],
    });
    expect(await countDocuments()).toBe(before + 1);
    const audit = await testDb.db.select().from(auditLog).where(eq(auditLog.entityId, doc.id));
    expect(audit.map((a) => a.action)).toEqual(["document.created"]);
  });

  it("an organization-level document derives nothing narrower", async () => {
    const doc = await createDocument("owner@demo.local", { locationId: undefined, organizationId: world.austin.organizationId });
    expect(doc).toMatchObject({ companyId: null, locationId: null });
  });

  it("without a place, uses the caller's only scope", async () => {
    const doc = await createDocument("branch@demo.local", { locationId: undefined });
    expect(doc.locationId).toBe(world.austin.id);
  });

  it("links a signing package of the same organization, not of another one (404)", async () => {
    const [own] = await testDb.db.select().from(signingPackages).where(eq(signingPackages.organizationId, world.austin.organizationId)).limit(1);
    const [foreign] = await testDb.db.select().from(signingPackages).where(eq(signingPackages.organizationId, world.tulsa.organizationId)).limit(1);
    const doc = await createDocument("manager@demo.local", { signingPackageId: own!.id });
    expect(doc.signingPackageId).toBe(own!.id);
    const before = await countDocuments();
    const res = await api("manager@demo.local", "/v1/documents", {
      method: "POST",
      json: { type: "other", title: "x", locationId: world.austin.id, signingPackageId: foreign!.id },
    });
    expect(res.status).toBe(404);
    ErrorBody.parse(res.body);
    expect(await countDocuments()).toBe(before);
  });

  describe("role matrix", () => {
    const cases: [string, () => Record<string, unknown>, number][] = [
      ["manager@demo.local", () => ({ locationId: world.dallas.id }), 201],
      ["owner@demo.local", () => ({ companyId: world.austin.companyId }), 201],
      ["branch@demo.local", () => ({ locationId: world.austin.id }), 201],
      ["branch@demo.local", () => ({ locationId: world.dallas.id }), 404],
      ["branch@demo.local", () => ({ organizationId: world.austin.organizationId }), 404],
      ["manager@demo.local", () => ({ locationId: world.tulsa.id }), 404],
      ["manager@other.local", () => ({ locationId: world.austin.id }), 404],
      ["manager@other.local", () => ({ organizationId: world.austin.organizationId }), 404],
      ["manager@other.local", () => ({ locationId: world.tulsa.id }), 201],
      ["signer@demo.local", () => ({ locationId: world.austin.id }), 403],
      ["admin@demo.local", () => ({ locationId: world.austin.id }), 403],
      ["manager@demo.local", () => ({ locationId: 2_000_000 }), 404],
    ];
    it.each(cases)("%s #%# answers %i", async (email, place, status) => {
      const before = await countDocuments();
      const res = await api(email, "/v1/documents", { method: "POST", json: { type: "other", title: "Matrix", ...place() } });
      expect(res.status).toBe(status);
      if (status === 201) Document.parse(res.body);
      else {
        ErrorBody.parse(res.body);
        expect(await countDocuments()).toBe(before);
      }
    });
  });

  describe("validation: 400, nothing created", () => {
    const bodies: [string, unknown][] = [
      ["missing type", { title: "x", locationId: 1 }],
      ["unknown type", { type: "deed", title: "x", locationId: 1 }],
      ["missing title", { type: "other", locationId: 1 }],
      ["blank title", { type: "other", title: "   ", locationId: 1 }],
      ["bad borrower email", { type: "other", title: "x", borrowerEmail: "nope", locationId: 1 }],
      ["bad co-borrower", { type: "other", title: "x", coBorrowers: [{ name: "x" }], locationId: 1 }],
      ["year out of range", { type: "other", title: "x", collateralYear: 1200, locationId: 1 }],
      ["unknown field", { type: "other", title: "x", locationId: 1, borrower: "x" }],
      ["string location", { type: "other", title: "x", locationId: "1" }],
      ["bad package id", { type: "other", title: "x", locationId: 1, signingPackageId: "nope" }],
      ["array body", []],
      ["null body", null],
    ];
    it.each(bodies)("%s", async (_, body) => {
      const before = await countDocuments();
      const res = await api("manager@demo.local", "/v1/documents", { method: "POST", json: body });
      expect(res.status).toBe(400);
      ErrorBody.parse(res.body);
      expect(await countDocuments()).toBe(before);
    });

    it("a company that does not match the location: 400", async () => {
      const res = await api("owner@demo.local", "/v1/documents", {
        method: "POST",
        json: { type: "other", title: "x", locationId: world.austin.id, companyId: world.austin.companyId + 1000 },
      });
      expect(res.status).toBe(400);
    });

    it("an org manager of several places must name one", async () => {
      await createUser(testDb.db, "two-orgs@demo.local", [
        { role: "manager", organizationId: world.austin.organizationId },
        { role: "manager", organizationId: world.tulsa.organizationId },
      ]);
      const res = await api("two-orgs@demo.local", "/v1/documents", { method: "POST", json: { type: "other", title: "x" } });
      expect(res.status).toBe(400);
      expect(ErrorBody.parse(res.body).error).toMatch(/organizationId/);
    });
  });
});

describe("GET /v1/documents", () => {
  let seeded: z.infer<typeof Document>[];
  beforeAll(async () => {
    seeded = [
      await createDocument("manager@demo.local", { title: "Needle title 100%", type: "bill_of_sale", status: "received" }),
      await createDocument("manager@demo.local", { title: "Other", borrowerName: "Needle Borrower", locationId: world.dallas.id }),
      await createDocument("manager@demo.local", { title: "Serial one", collateralSerial: "NEEDLE-777" }),
      await createDocument("manager@other.local", { title: "Needle abroad", locationId: world.tulsa.id }),
    ];
  });

  it("searches title, borrower and serial case-insensitively within scope", async () => {
    const res = await api("manager@demo.local", "/v1/documents?q=needle&limit=100");
    expect(res.status).toBe(200);
    const ids = DocumentList.parse(res.body).data.map((d) => d.id);
    expect(ids).toEqual([seeded[2]!.id, seeded[1]!.id, seeded[0]!.id]);
  });

  it("treats % and _ literally", async () => {
    const res = await api("manager@demo.local", "/v1/documents?q=100%25");
    expect(DocumentList.parse(res.body).data.map((d) => d.id)).toEqual([seeded[0]!.id]);
    const none = await api("manager@demo.local", "/v1/documents?q=_");
    expect(DocumentList.parse(none.body).data).toEqual([]);
  });

  it("filters by type, status, location and company", async () => {
    const byType = DocumentList.parse((await api("manager@demo.local", "/v1/documents?type=bill_of_sale")).body).data;
    expect(byType.map((d) => d.id)).toEqual([seeded[0]!.id]);
    const byStatus = DocumentList.parse((await api("manager@demo.local", "/v1/documents?status=received&q=needle")).body).data;
    expect(byStatus.map((d) => d.id)).toEqual([seeded[0]!.id]);
    const byLocation = DocumentList.parse((await api("manager@demo.local", `/v1/documents?locationId=${world.dallas.id}&q=needle`)).body).data;
    expect(byLocation.map((d) => d.id)).toEqual([seeded[1]!.id]);
    const byCompany = DocumentList.parse((await api("manager@demo.local", `/v1/documents?companyId=${world.tulsa.companyId}`)).body).data;
    expect(byCompany).toEqual([]);
  });

  it("a location manager sees only their location", async () => {
    const data = DocumentList.parse((await api("branch@demo.local", "/v1/documents?limit=100")).body).data;
    expect(data.length).toBeGreaterThan(0);
    expect(data.every((d) => d.locationId === world.austin.id)).toBe(true);
  });

  it("pages with a keyset cursor without gaps or repeats", async () => {
    const all = DocumentList.parse((await api("manager@demo.local", "/v1/documents?limit=100")).body).data.map((d) => d.id);
    const paged: string[] = [];
    let cursor: string | null = null;
    do {
      const res = await api("manager@demo.local", `/v1/documents?limit=2${cursor ? `&cursor=${cursor}` : ""}`);
      const page = DocumentList.parse(res.body);
      expect(page.data.length).toBeLessThanOrEqual(2);
      paged.push(...page.data.map((d) => d.id));
      cursor = page.nextCursor;
    } while (cursor);
    expect(paged).toEqual(all);
  });

  it("admins read across organizations with the cap stated", async () => {
    const page = DocumentList.parse((await api("admin@demo.local", "/v1/documents?q=needle&limit=100")).body);
    expect(page.data).toHaveLength(4);
    expect(page.cap).toBe(500);
  });

  it("signers get 403; bad parameters 400", async () => {
    expect((await api("signer@demo.local", "/v1/documents")).status).toBe(403);
    for (const query of ["limit=0", "limit=1000", "type=deed", "status=x", "cursor=bogus", "locationId=abc"]) {
      const res = await api("manager@demo.local", `/v1/documents?${query}`);
      expect(res.status, query).toBe(400);
      ErrorBody.parse(res.body);
    }
  });
});

describe("GET/PATCH/DELETE /v1/documents/{id}", () => {
  it("reads in scope; 404 outside it and for unknown ids; 403 for signers", async () => {
    const doc = await createDocument();
    const path = `/v1/documents/${doc.id}`;
    expect(Document.parse((await api("manager@demo.local", path)).body)).toEqual(doc);
    expect((await api("admin@demo.local", path)).status).toBe(200);
    expect((await api("manager@other.local", path)).status).toBe(404);
    expect((await api("manager@demo.local", "/v1/documents/01936d3c-8f2a-7b4e-9c1d-2e3f4a5b6c7d")).status).toBe(404);
    expect((await api("signer@demo.local", path)).status).toBe(403);
    expect((await api("manager@demo.local", "/v1/documents/not-a-uuid")).status).toBe(400);
  });

  it("updates fields and moves within the organization; audit keeps before and after", async () => {
    const doc = await createDocument();
    const res = await api("manager@demo.local", `/v1/documents/${doc.id}`, {
      method: "PATCH",
      json: { status: "accepted", borrowerName: "New Name", notes: null, locationId: world.dallas.id },
    });
    expect(res.status).toBe(200);
    expect(Document.parse(res.body)).toMatchObject({ status: "accepted", borrowerName: "New Name", locationId: world.dallas.id, title: doc.title });
    const audit = await testDb.db.select().from(auditLog).where(eq(auditLog.entityId, doc.id));
    expect(audit.map((a) => a.action)).toEqual(["document.created", "document.updated"]);
  });

  it("PATCH role matrix, validation and scope: nothing changed on 4xx", async () => {
    const doc = await createDocument();
    const path = `/v1/documents/${doc.id}`;
    const cases: [string, unknown, number][] = [
      ["signer@demo.local", { title: "x" }, 403],
      ["admin@demo.local", { title: "x" }, 403],
      ["manager@other.local", { title: "x" }, 404],
      ["manager@demo.local", {}, 400],
      ["manager@demo.local", { status: "done" }, 400],
      ["manager@demo.local", { organizationId: 2 }, 400],
      ["manager@demo.local", { locationId: world.tulsa.id }, 404],
      ["branch@demo.local", { locationId: world.dallas.id }, 404],
    ];
    for (const [email, body, status] of cases) {
      const res = await api(email, path, { method: "PATCH", json: body });
      expect(res.status, `${email} ${JSON.stringify(body)}`).toBe(status);
      ErrorBody.parse(res.body);
    }
    const [stored] = await testDb.db.select().from(chattelDocuments).where(eq(chattelDocuments.id, doc.id));
    expect(stored!.updatedAt.toISOString()).toBe(doc.updatedAt);
  });

  it("DELETE answers 204 with an empty body; then 404", async () => {
    const doc = await createDocument();
    const path = `/v1/documents/${doc.id}`;
    expect((await api("signer@demo.local", path, { method: "DELETE" })).status).toBe(403);
    expect((await api("admin@demo.local", path, { method: "DELETE" })).status).toBe(403);
    expect((await api("manager@other.local", path, { method: "DELETE" })).status).toBe(404);
    const res = await api("manager@demo.local", path, { method: "DELETE" });
    expect(res.status).toBe(204);
    expect(res.text).toBe("");
    expect((await api("manager@demo.local", path)).status).toBe(404);
    expect((await api("manager@demo.local", path, { method: "DELETE" })).status).toBe(404);
  });
});

describe("fuzz: malformed input never 5xx", () => {
  it("create bodies", async () => {
    const token = await tokenFor("manager@demo.local");
    await fc.assert(
      fc.asyncProperty(fc.jsonValue(), async (body) => {
        const res = await callApi("/v1/documents", { method: "POST", token, json: body });
        expect(res.status).toBeLessThan(500);
      }),
      { numRuns: 60 },
    );
  });

  it("list queries and patch bodies", async () => {
    const token = await tokenFor("manager@demo.local");
    const doc = await createDocument();
    await fc.assert(
      fc.asyncProperty(fc.string(), fc.string(), fc.jsonValue(), async (key, value, body) => {
        const list = await callApi(`/v1/documents?${encodeURIComponent(key)}=${encodeURIComponent(value)}&q=${encodeURIComponent(value)}`, { token });
        expect(list.status).toBeLessThan(500);
        const patch = await callApi(`/v1/documents/${doc.id}`, { method: "PATCH", token, json: body });
        expect(patch.status).toBeLessThan(500);
      }),
      { numRuns: 60 },
    );
  });
});
