import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { eq } from "drizzle-orm";
import { signingPackages } from "@/db/schema";
import { hashAuditEntry } from "@/lib/audit/record-audit-entry";
import { callApi, tokenFor } from "../helpers/api";
import { createTestDb, type TestDb } from "../helpers/db";
import { auditEntriesFor, countPackages, createUser, loadDemoWorld, type DemoWorld } from "../helpers/fixtures";
import { ErrorBody } from "../helpers/schemas";

const PATH = "/v1/signing/manager/signings";
const Signing = z.strictObject({
  id: z.uuid(),
  organizationId: z.number().int(),
  companyId: z.number().int(),
  locationId: z.number().int(),
  title: z.string(),
  status: z.literal("draft"),
  templateId: z.null(),
  flowId: z.uuid().nullable(),
  message: z.string().nullable(),
  signerAuthMethod: z.enum(["link", "email_code", "access_code", "sms_code", "account"]),
  createdByUserId: z.uuid(),
  sentAt: z.null(),
  completedAt: z.null(),
  cancelledAt: z.null(),
  cancelReason: z.null(),
  declinedAt: z.null(),
  expiresAt: z.null(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});

let testDb: TestDb;
let world: DemoWorld;

beforeAll(async () => {
  testDb = await createTestDb();
  world = await loadDemoWorld(testDb.db);
  await createUser(testDb.db, "branch@demo.local", [
    { role: "manager", organizationId: world.austin.organizationId, companyId: world.austin.companyId, locationId: world.austin.id },
  ]);
  await createUser(testDb.db, "company@demo.local", [
    { role: "manager", organizationId: world.austin.organizationId, companyId: world.austin.companyId },
  ]);
});
afterAll(() => testDb.cleanup());

async function create(email: string, body: unknown) {
  return callApi(PATH, { method: "POST", token: await tokenFor(email), json: body });
}

describe("POST /v1/signing/manager/signings", () => {
  it("creates a draft package at the manager's location: 201 with the package", async () => {
    const before = await countPackages(testDb.db);
    const res = await create("manager@demo.local", { locationId: world.austin.id, title: "Smith closing" });
    expect(res.status).toBe(201);
    const body = Signing.parse(res.body);
    expect(body).toMatchObject({
      title: "Smith closing",
      locationId: world.austin.id,
      companyId: world.austin.companyId,
      organizationId: world.austin.organizationId,
    });
    expect(await countPackages(testDb.db)).toBe(before + 1);
    const [stored] = await testDb.db.select().from(signingPackages).where(eq(signingPackages.id, body.id));
    expect(stored?.status).toBe("draft");
  });

  it("writes a hash-chained audit entry with the creation", async () => {
    const res = await create("manager@demo.local", { locationId: world.dallas.id });
    const id = Signing.parse(res.body).id;
    const entries = await auditEntriesFor(testDb.db, id);
    expect(entries).toHaveLength(1);
    const [entry] = entries;
    expect(entry).toMatchObject({ action: "signing.created", prevHash: null, entityId: id });
    expect(entry!.hash).toBe(hashAuditEntry({ ...entry!, ipAddress: entry!.ipAddress, createdAt: entry!.createdAt, prevHash: null }));
  });

  it("defaults the title from the location", async () => {
    const res = await create("manager@demo.local", { locationId: world.dallas.id });
    expect(Signing.parse(res.body).title).toBe("Signing at Dallas Branch");
  });

  describe("role matrix", () => {
    const cases: [string, () => number, number][] = [
      ["manager@demo.local", () => world.austin.id, 201],
      ["owner@demo.local", () => world.dallas.id, 201],
      ["branch@demo.local", () => world.austin.id, 201],
      ["branch@demo.local", () => world.dallas.id, 404],
      ["company@demo.local", () => world.dallas.id, 201],
      ["company@demo.local", () => world.tulsa.id, 404],
      ["manager@demo.local", () => world.tulsa.id, 404],
      ["manager@other.local", () => world.austin.id, 404],
      ["manager@other.local", () => world.tulsa.id, 201],
      ["signer@demo.local", () => world.austin.id, 403],
      ["cosigner@demo.local", () => world.austin.id, 403],
      ["admin@demo.local", () => world.austin.id, 403],
    ];
    it.each(cases)("%s at location #%# answers %i", async (email, location, status) => {
      const before = await countPackages(testDb.db);
      const res = await create(email, { locationId: location() });
      expect(res.status).toBe(status);
      if (status === 201) {
        Signing.parse(res.body);
      } else {
        ErrorBody.parse(res.body);
        expect(await countPackages(testDb.db)).toBe(before);
      }
    });

    it("a 404 for a foreign location reads the same as for a location that does not exist", async () => {
      const foreign = await create("manager@other.local", { locationId: world.austin.id });
      const missing = await create("manager@other.local", { locationId: 2_000_000 });
      expect(foreign.status).toBe(404);
      expect(missing.status).toBe(404);
      expect((foreign.body as { error: string }).error.replace(/\d+/g, "N")).toBe(
        (missing.body as { error: string }).error.replace(/\d+/g, "N"),
      );
    });

    it("a signer gets 403 with a resource-specific message", async () => {
      const res = await create("signer@demo.local", { locationId: world.austin.id });
      expect(res.body).toEqual({ error: "You do not have permission to create signing packages." });
    });
  });

  describe("validation: 400 with {error}, nothing created", () => {
    const bodies: [string, unknown][] = [
      ["missing locationId", {}],
      ["string locationId", { locationId: "1" }],
      ["fractional locationId", { locationId: 1.5 }],
      ["negative locationId", { locationId: -3 }],
      ["zero locationId", { locationId: 0 }],
      ["null locationId", { locationId: null }],
      ["huge locationId", { locationId: 2 ** 53 }],
      ["boolean locationId", { locationId: true }],
      ["array body", [1]],
      ["string body", "locationId"],
      ["null body", null],
      ["unknown field", { locationId: 1, signers: "x" }],
      ["empty title", { locationId: 1, title: "" }],
      ["overlong title", { locationId: 1, title: "x".repeat(201) }],
    ];
    it.each(bodies)("%s", async (_, body) => {
      const before = await countPackages(testDb.db);
      const res = await create("manager@demo.local", body);
      expect(res.status).toBe(400);
      ErrorBody.parse(res.body);
      expect(await countPackages(testDb.db)).toBe(before);
    });

    it("names the field in the message", async () => {
      const res = await create("manager@demo.local", { locationId: "abc" });
      expect((res.body as { error: string }).error).toMatch(/locationId/);
    });

    it.each([
      ["malformed JSON", "{bad", "application/json"],
      ["truncated JSON", '{"locationId": 1', "application/json"],
      ["empty body", "", "application/json"],
      ["form-encoded body", "locationId=1", "application/x-www-form-urlencoded"],
      ["no content type", '{"locationId": 1}', ""],
    ])("%s", async (_, body, contentType) => {
      const before = await countPackages(testDb.db);
      const headers: Record<string, string> = contentType ? { "content-type": contentType } : {};
      const res = await callApi(PATH, { method: "POST", token: await tokenFor("manager@demo.local"), headers, body });
      expect(res.status).toBe(400);
      ErrorBody.parse(res.body);
      expect(await countPackages(testDb.db)).toBe(before);
    });

    it("a body over 1 MiB is refused with 413", async () => {
      const res = await create("manager@demo.local", { locationId: world.austin.id, title: "x".repeat(1_100_000) });
      expect(res.status).toBe(413);
      ErrorBody.parse(res.body);
    });
  });

  it("without a token: 401 before anything else", async () => {
    const res = await callApi(PATH, { method: "POST", json: { locationId: "nope" } });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: "Missing Authorization Bearer token." });
  });
});
