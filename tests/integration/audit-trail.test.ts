import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { auditLog, signingPackages } from "@/db/schema";
import { verifyAuditChain } from "@/lib/audit/verify-audit-chain";
import { callApi, tokenFor } from "../helpers/api";
import { createTestDb, type TestDb } from "../helpers/db";
import { auditEntriesFor, createUser, loadDemoWorld, type DemoWorld } from "../helpers/fixtures";
import { ErrorBody } from "../helpers/schemas";
import { createSignerPackage, getDemoPackage, pngDataUrl } from "../helpers/signing-fixtures";

const Entry = z.strictObject({
  id: z.number().int(),
  action: z.string(),
  entityType: z.string(),
  entityId: z.string(),
  actorUserId: z.uuid().nullable(),
  ipAddress: z.string().nullable(),
  before: z.unknown(),
  after: z.unknown(),
  prevHash: z.string().nullable(),
  hash: z.string().regex(/^[0-9a-f]{64}$/),
  createdAt: z.iso.datetime(),
});
const Trail = z.strictObject({
  data: z.array(Entry),
  nextCursor: z.string().nullable(),
  verified: z.boolean(),
  brokenAt: z.number().int().nullable(),
});

let testDb: TestDb;
let world: DemoWorld;
let demo: Awaited<ReturnType<typeof getDemoPackage>>;

const auditPath = (id: string, query = "") => `/v1/signing/manager/signings/${id}/audit${query}`;
const read = async (email: string, id: string, query = "") => callApi(auditPath(id, query), { token: await tokenFor(email) });

beforeAll(async () => {
  testDb = await createTestDb();
  world = await loadDemoWorld(testDb.db);
  demo = await getDemoPackage(testDb.db);
  await createUser(testDb.db, "dallas-manager@demo.local", [
    { role: "manager", organizationId: world.dallas.organizationId, companyId: world.dallas.companyId, locationId: world.dallas.id },
  ]);
  await createUser(testDb.db, "austin-manager@demo.local", [
    { role: "manager", organizationId: world.austin.organizationId, companyId: world.austin.companyId, locationId: world.austin.id },
  ]);
  // Build a real trail through the API: view, sign, co-sign (→ completed).
  for (const email of ["signer@demo.local", "cosigner@demo.local"]) {
    const token = await tokenFor(email);
    await callApi(`/v1/signing/signer/signings/${demo.id}`, { token });
    const res = await callApi(`/v1/signing/signer/signings/${demo.id}/documents/${demo.document.id}/esignatures`, {
      method: "POST",
      token,
      json: { kind: "drawn", imageDataUrl: pngDataUrl(), consent: true },
    });
    expect(res.status).toBe(201);
  }
});
afterAll(() => testDb.cleanup());

describe("GET /v1/signing/manager/signings/{id}/audit", () => {
  it("returns the entries in order with a verified chain", async () => {
    const res = await read("manager@demo.local", demo.id);
    expect(res.status).toBe(200);
    const trail = Trail.parse(res.body);
    expect(trail).toMatchObject({ verified: true, brokenAt: null, nextCursor: null });
    expect(trail.data.map((e) => e.action)).toEqual([
      // The demo seed creates and sends the package through the domain functions.
      "signing.created",
      "signer.notified",
      "signer.notified",
      "signing.sent",
      "signer.viewed",
      "esignature.recorded",
      "signer.signed",
      "signing.in_progress",
      "signer.viewed",
      "esignature.recorded",
      "signer.signed",
      // The document reaches its mode's final state, then the package completes.
      "document.esigned",
      "signing.completed",
    ]);
    const ids = trail.data.map((e) => e.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    trail.data.forEach((entry, i) => expect(entry.prevHash).toBe(i === 0 ? null : trail.data[i - 1]!.hash));
  });

  it("paginates in order with the verification of the whole chain on every page", async () => {
    const seen: number[] = [];
    let cursor: string | null = null;
    do {
      const trail = Trail.parse((await read("owner@demo.local", demo.id, `?limit=3${cursor ? `&cursor=${cursor}` : ""}`)).body);
      expect(trail.data.length).toBeLessThanOrEqual(3);
      expect(trail.verified).toBe(true);
      seen.push(...trail.data.map((e) => e.id));
      cursor = trail.nextCursor;
    } while (cursor);
    expect(seen).toHaveLength(13);
  });

  describe("role matrix", () => {
    it.each([
      ["manager@demo.local", 200],
      ["owner@demo.local", 200],
      ["admin@demo.local", 200],
      ["austin-manager@demo.local", 200],
      ["dallas-manager@demo.local", 404],
      ["manager@other.local", 404],
      ["signer@demo.local", 403],
      ["cosigner@demo.local", 403],
    ])("%s → %i", async (email, status) => {
      const res = await read(email, demo.id);
      expect(res.status).toBe(status);
      if (status === 200) Trail.parse(res.body);
      else ErrorBody.parse(res.body);
    });

    it("403 carries a resource-specific message", async () => {
      const res = await read("signer@demo.local", demo.id);
      expect(res.body).toEqual({ error: "You do not have permission to read audit trails." });
    });
  });

  it("404 for a missing or malformed id; 400 for a bad cursor", async () => {
    for (const id of ["01934b7e-8f3a-7c2d-9e4f-1a2b3c4d5e6f", "nope"]) {
      const res = await read("admin@demo.local", id);
      expect(res.status).toBe(404);
      ErrorBody.parse(res.body);
    }
    const bad = await read("admin@demo.local", demo.id, "?cursor=abc");
    expect(bad.status).toBe(400);
    ErrorBody.parse(bad.body);
  });

  it("an empty trail is verified", async () => {
    // Domain code always audits a package's creation; only a row written around it has no trail.
    const [pkg] = await testDb.db
      .insert(signingPackages)
      .values({ organizationId: world.austin.organizationId, companyId: world.austin.companyId, locationId: world.austin.id, title: "Quiet" })
      .returning();
    const trail = Trail.parse((await read("manager@demo.local", pkg!.id)).body);
    expect(trail).toEqual({ data: [], nextCursor: null, verified: true, brokenAt: null });
  });
});

describe("tamper detection", () => {
  it("an UPDATE of an entry's content is detected at that entry", async () => {
    const pkg = await createSignerPackage(testDb.db, { location: world.austin, signers: [{ email: "tamper1@demo.local" }] });
    const token = await tokenFor("tamper1@demo.local");
    await callApi(`/v1/signing/signer/signings/${pkg.id}`, { token });
    await callApi(`/v1/signing/signer/signings/${pkg.id}/documents/${pkg.documents[0]!.id}/esignatures`, {
      method: "POST",
      token,
      json: { kind: "typed", text: "Tamper One", font: "caveat", consent: true },
    });
    const entries = await auditEntriesFor(testDb.db, pkg.id);
    expect(entries.length).toBeGreaterThanOrEqual(3);
    const target = entries[1]!;
    await testDb.db.execute(sql`update audit_log set ip_address = '198.51.100.66' where id = ${target.id}`);
    expect(await verifyAuditChain(testDb.db, { packageId: pkg.id })).toEqual({ verified: false, brokenAt: target.id });
    const trail = Trail.parse((await read("manager@demo.local", pkg.id)).body);
    expect(trail).toMatchObject({ verified: false, brokenAt: target.id });
  });

  it("rewriting an entry and its hash breaks the link of the next one", async () => {
    const pkg = await createSignerPackage(testDb.db, { location: world.austin, signers: [{ email: "tamper2@demo.local" }] });
    const token = await tokenFor("tamper2@demo.local");
    await callApi(`/v1/signing/signer/signings/${pkg.id}`, { token });
    await callApi(`/v1/signing/signer/signings/${pkg.id}/decline`, { method: "POST", token, json: { reason: "no" } });
    const entries = await auditEntriesFor(testDb.db, pkg.id);
    const first = entries[0]!;
    await testDb.db
      .update(auditLog)
      .set({ after: { status: "signed" }, hash: "f".repeat(64) })
      .where(eq(auditLog.id, first.id));
    const result = await verifyAuditChain(testDb.db, { packageId: pkg.id });
    expect(result.verified).toBe(false);
    expect(result.brokenAt).toBe(first.id);
  });

  it("deleting an entry in the middle is detected at its successor", async () => {
    const pkg = await createSignerPackage(testDb.db, { location: world.austin, signers: [{ email: "tamper3@demo.local" }] });
    const token = await tokenFor("tamper3@demo.local");
    const sent = (await auditEntriesFor(testDb.db, pkg.id)).length;
    await callApi(`/v1/signing/signer/signings/${pkg.id}`, { token });
    await callApi(`/v1/signing/signer/signings/${pkg.id}/decline`, { method: "POST", token, json: { reason: "no" } });
    const entries = (await auditEntriesFor(testDb.db, pkg.id)).slice(sent);
    expect(entries.map((e) => e.action)).toEqual(["signer.viewed", "signer.declined", "signing.declined"]);
    await testDb.db.delete(auditLog).where(eq(auditLog.id, entries[1]!.id));
    expect(await verifyAuditChain(testDb.db, { packageId: pkg.id })).toEqual({ verified: false, brokenAt: entries[2]!.id });
  });
});

describe("a deleted draft", () => {
  it("keeps its whole trail, and the chain still verifies", async () => {
    const token = await tokenFor("manager@demo.local");
    const created = await callApi("/v1/signing/manager/signings", { method: "POST", token, json: { locationId: world.austin.id } });
    const id = (created.body as { id: string }).id;
    await callApi(`/v1/signing/manager/signings/${id}`, { method: "PATCH", token, json: { title: "Renamed draft" } });
    const deleted = await callApi(`/v1/signing/manager/signings/${id}`, { method: "DELETE", token });
    expect(deleted.status).toBe(204);

    const entries = await auditEntriesFor(testDb.db, id);
    expect(entries.map((e) => e.action)).toEqual(["signing.created", "signing.updated", "signing.deleted"]);
    expect(entries.every((e) => e.packageId === id)).toBe(true);
    expect(await verifyAuditChain(testDb.db, { packageId: id })).toEqual({ verified: true, brokenAt: null });
  });
});
