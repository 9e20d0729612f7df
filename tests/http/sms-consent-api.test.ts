import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { packageSigners, users } from "@/db/schema";
import { createTestDb, type TestDb } from "../helpers/db";
import { as, BASE, createDraft, loadManagerWorld, SignerJson } from "../helpers/manager";

// /v1: a signer's mobile number and the manager's attestation of their consent to texts.

let testDb: TestDb;
let world: Awaited<ReturnType<typeof loadManagerWorld>>;
let managerId: string;

beforeAll(async () => {
  testDb = await createTestDb();
  world = await loadManagerWorld(testDb.db);
  const [me] = await testDb.db.select().from(users).where(eq(users.email, "manager@demo.local"));
  managerId = me!.id;
});
afterAll(() => testDb.cleanup());

const signersOf = (id: string) => `${BASE}/signings/${id}/signers`;

describe("consent to texts on /v1", () => {
  it("refuses smsConsent without a mobile number (400 naming the field), on create and on add", async () => {
    const create = await as("manager@demo.local", `${BASE}/signings`, {
      method: "POST",
      json: { locationId: world.austin.id, signers: [{ name: "No Phone", email: "nophone@example.com", smsConsent: true }] },
    });
    expect(create.status).toBe(400);
    expect(create.text).toContain("signers.0.phone");
    expect(create.text).toContain("required with smsConsent");

    const id = await createDraft("manager@demo.local", { locationId: world.austin.id });
    const add = await as("manager@demo.local", signersOf(id), { method: "POST", json: { name: "No Phone", email: "nophone@example.com", smsConsent: true } });
    expect(add.status).toBe(400);
    expect(add.text).toContain("required with smsConsent");
    const bad = await as("manager@demo.local", signersOf(id), { method: "POST", json: { name: "Bad", email: "bad@example.com", phone: "512-555-0100", smsConsent: true } });
    expect(bad.status).toBe(400);
    expect(bad.text).toContain("E.164");
  });

  it("stores the consent with who attested it and when; a new number drops it; it can be given again or withdrawn", async () => {
    const id = await createDraft("manager@demo.local", { locationId: world.austin.id });
    const before = Date.now();
    const add = await as("manager@demo.local", signersOf(id), {
      method: "POST",
      json: { name: "Texted", email: "texted@example.com", phone: "+15125550123", smsConsent: true },
    });
    expect(add.status).toBe(201);
    const signer = SignerJson.parse(add.body);
    expect(signer.phone).toBe("+15125550123");
    expect(Date.parse(signer.smsConsentAt!)).toBeGreaterThanOrEqual(before - 1000);
    expect(signer.smsConsentByUserId).toBe(managerId);

    const noConsent = SignerJson.parse((await as("manager@demo.local", signersOf(id), { method: "POST", json: { name: "Plain", email: "plain@example.com", phone: "+15125550124" } })).body);
    expect(noConsent.smsConsentAt).toBeNull();

    const path = `${signersOf(id)}/${signer.id}`;
    const moved = await as("manager@demo.local", path, { method: "PATCH", json: { phone: "+15125550199" } });
    expect(moved.status).toBe(200);
    expect(SignerJson.parse(moved.body)).toMatchObject({ phone: "+15125550199", smsConsentAt: null, smsConsentByUserId: null });

    const again = SignerJson.parse((await as("manager@demo.local", path, { method: "PATCH", json: { smsConsent: true } })).body);
    expect(again.smsConsentAt).not.toBeNull();
    const withdrawn = SignerJson.parse((await as("manager@demo.local", path, { method: "PATCH", json: { smsConsent: false } })).body);
    expect(withdrawn.smsConsentAt).toBeNull();

    const cleared = await as("manager@demo.local", path, { method: "PATCH", json: { phone: null, smsConsent: true } });
    expect(cleared.status).toBe(400);
    expect(cleared.text).toContain("mobile number");
    const [row] = await testDb.db.select().from(packageSigners).where(eq(packageSigners.id, signer.id));
    expect(row!.phone).toBe("+15125550199");
  });

  it("documents smsConsent and smsConsentAt in the OpenAPI document", async () => {
    const doc = await as("manager@demo.local", "/v1/openapi.json");
    const schemas = (doc.body as { components: { schemas: Record<string, { properties?: Record<string, unknown> }> } }).components.schemas;
    expect(Object.keys(schemas.Signer!.properties!)).toEqual(expect.arrayContaining(["smsConsentAt", "smsConsentByUserId"]));
    expect(Object.keys(schemas.CreateSignerRequest!.properties!)).toContain("smsConsent");
    expect(Object.keys(schemas.UpdateSignerRequest!.properties!)).toEqual(expect.arrayContaining(["phone", "smsConsent"]));
  });
});
