import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { packageSigners, signingPackages } from "@/db/schema";
import { recordAuthFailure } from "@/lib/auth/record-auth-failure";
import { verifyPassword } from "@/lib/auth/passwords";
import { signerProofRules } from "@/lib/signer-access/rules";
import { createTestDb, type TestDb } from "../helpers/db";
import { as, BASE, createDraft, loadManagerWorld, SigningDetailJson, SigningJson, samplePdf, uploadPdf } from "../helpers/manager";

// /v1 and how signers prove who they are, for the manager's side: the package's method on every
// package response, draft edits of the package's and a signer's method (codes write-only), sending
// refused while a signer's method lacks its code or number, failed attempts and the lock in the
// package detail, and templates that carry the method into packages created from them.

let testDb: TestDb;
let world: Awaited<ReturnType<typeof loadManagerWorld>>;
const M = "manager@demo.local";

beforeAll(async () => {
  testDb = await createTestDb();
  world = await loadManagerWorld(testDb.db);
});
afterAll(() => testDb.cleanup());

const signerRows = (id: string) => testDb.db.select().from(packageSigners).where(eq(packageSigners.packageId, id)).orderBy(packageSigners.email);
const detailOf = async (id: string) => {
  const res = await as(M, `${BASE}/signings/${id}`);
  expect(res.status).toBe(200);
  return SigningDetailJson.parse(res.body);
};

describe("package responses", () => {
  it("name the package's method; create refuses a signer who follows access_code without a code (400 naming the field)", async () => {
    const created = await as(M, `${BASE}/signings`, { json: { locationId: world.austin.id, signerAuthMethod: "link" } });
    expect(created.status).toBe(201);
    expect(SigningJson.parse(created.body).signerAuthMethod).toBe("link");

    const refused = await as(M, `${BASE}/signings`, {
      json: { locationId: world.austin.id, signerAuthMethod: "access_code", signers: [{ name: "Pat", email: "pat-nocode@example.test" }] },
    });
    expect(refused.status).toBe(400);
    expect(refused.text).toMatch(/signers\.0\.accessCode/);
    expect(refused.text).toMatch(/Enter an access code/);
  });
});

describe("editing a draft's methods", () => {
  it("PATCH the package's method and a signer's method, code and phone; the code is stored hashed and never returned", async () => {
    const id = await createDraft(M, { locationId: world.austin.id, signers: [{ name: "Pat Patch", email: "pat-patch@example.test" }] });
    const [signer] = await signerRows(id);
    const patched = await as(M, `${BASE}/signings/${id}`, { method: "PATCH", json: { signerAuthMethod: "sms_code" } });
    expect(patched.status).toBe(200);
    expect(SigningJson.parse(patched.body).signerAuthMethod).toBe("sms_code");

    const signerPatch = await as(M, `${BASE}/signings/${id}/signers/${signer!.id}`, {
      method: "PATCH",
      json: { authMethod: "access_code", accessCode: "secret-4242", phone: "+15125550199" },
    });
    expect(signerPatch.status).toBe(200);
    expect(signerPatch.text).not.toContain("secret-4242");
    expect(signerPatch.body).toMatchObject({ authMethod: "access_code", hasAccessCode: true, phone: "+15125550199" });
    const [stored] = await signerRows(id);
    expect(await verifyPassword("secret-4242", stored!.accessCodeHash!)).toBe(true);

    const back = await as(M, `${BASE}/signings/${id}/signers/${signer!.id}`, { method: "PATCH", json: { authMethod: null, phone: null } });
    expect(back.status).toBe(200);
    expect(back.body).toMatchObject({ authMethod: null, phone: null });

    const badPhone = await as(M, `${BASE}/signings/${id}/signers/${signer!.id}`, { method: "PATCH", json: { phone: "555-0199" } });
    expect(badPhone.status).toBe(400);
    expect(badPhone.text).toMatch(/E\.164/);
  });

  it("sending is refused (400) while a signer's method lacks its code or number, and works once given", async () => {
    const id = await createDraft(M, { locationId: world.austin.id, signers: [{ name: "Sam Send", email: "sam-send@example.test" }] });
    expect((await uploadPdf(M, id)).status).toBe(201);
    expect((await as(M, `${BASE}/signings/${id}`, { method: "PATCH", json: { signerAuthMethod: "sms_code" } })).status).toBe(200);
    const refused = await as(M, `${BASE}/signings/${id}/send`, { method: "POST" });
    expect(refused.status).toBe(400);
    expect(refused.text).toMatch(/Sam Send gets a code by text message, but has no mobile number/);
    expect((await testDb.db.select().from(signingPackages).where(eq(signingPackages.id, id)))[0]!.status).toBe("draft");

    const [signer] = await signerRows(id);
    expect((await as(M, `${BASE}/signings/${id}/signers/${signer!.id}`, { method: "PATCH", json: { phone: "+15125550100" } })).status).toBe(200);
    const sent = await as(M, `${BASE}/signings/${id}/send`, { method: "POST" });
    expect(sent.status).toBe(200);
  });
});

describe("package detail", () => {
  it("gives each signer's failed attempts and, while five wrong codes lock the proof step, until when", async () => {
    const id = await createDraft(M, {
      locationId: world.austin.id,
      signerAuthMethod: "access_code",
      signers: [
        { name: "Lee Locked", email: "lee-locked@example.test", accessCode: "1111" },
        { name: "Ola Open", email: "ola-open@example.test", accessCode: "2222" },
      ],
    });
    const [lee, ola] = await signerRows(id);
    await testDb.db.update(packageSigners).set({ authFailures: 5 }).where(eq(packageSigners.id, lee!.id));
    await testDb.db.update(packageSigners).set({ authFailures: 2 }).where(eq(packageSigners.id, ola!.id));
    const before = Date.now();
    for (let i = 0; i < 5; i++) await recordAuthFailure(testDb.db, { rules: signerProofRules(lee!.id) });
    for (let i = 0; i < 2; i++) await recordAuthFailure(testDb.db, { rules: signerProofRules(ola!.id) });

    const detail = await detailOf(id);
    expect(detail.signerAuthMethod).toBe("access_code");
    const byName = Object.fromEntries(detail.signers.map((s) => [s.name, s]));
    expect(byName["Lee Locked"]).toMatchObject({ authFailures: 5, hasAccessCode: true });
    expect(byName["Ola Open"]).toMatchObject({ authFailures: 2, authLockedUntil: null });
    const lockedUntil = new Date(byName["Lee Locked"]!.authLockedUntil!).getTime();
    expect(lockedUntil).toBeGreaterThan(before + 14 * 60_000);
    expect(lockedUntil).toBeLessThanOrEqual(Date.now() + 15 * 60_000);
    // The codes never come back, as a value of any field (an id or a time may hold the digits by chance).
    expect(JSON.stringify(detail)).not.toMatch(/"(1111|2222)"/);
  });
});

describe("templates", () => {
  it("carry the package's method and a role's method; a package created from one inherits both, a request's own choice wins", async () => {
    const created = await as(M, `${BASE}/templates`, {
      json: {
        organizationId: world.austin.organizationId,
        name: "Proof template",
        signerAuthMethod: "access_code",
        roles: [
          { key: "buyer", label: "Buyer", role: "signer", routingOrder: 1 },
          { key: "cobuyer", label: "Co-buyer", role: "co_signer", routingOrder: 1, authMethod: "sms_code" },
        ],
      },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ signerAuthMethod: "access_code", roles: [{ key: "buyer" }, { key: "cobuyer", authMethod: "sms_code" }] });
    const templateId = (created.body as { id: string }).id;
    expect((await as(M, `${BASE}/templates/${templateId}/documents?name=T.pdf`, { method: "POST", body: (await samplePdf()) as Uint8Array<ArrayBuffer>, headers: { "content-type": "application/pdf" } })).status).toBe(201);

    // The buyer follows the template's access_code, the co-buyer takes the role's sms_code: each needs its own.
    const missing = await as(M, `${BASE}/signings`, {
      json: {
        locationId: world.austin.id,
        templateId,
        signers: [
          { name: "Bo Buyer", email: "bo@example.test", templateRole: "buyer", accessCode: "4321" },
          { name: "Cy Cobuyer", email: "cy@example.test", templateRole: "cobuyer" },
        ],
      },
    });
    expect(missing.status).toBe(400);
    expect(missing.text).toMatch(/Cy Cobuyer gets a code by text message, but has no mobile number/);

    const ok = await as(M, `${BASE}/signings`, {
      json: {
        locationId: world.austin.id,
        templateId,
        signers: [
          { name: "Bo Buyer", email: "bo@example.test", templateRole: "buyer", accessCode: "4321" },
          { name: "Cy Cobuyer", email: "cy@example.test", templateRole: "cobuyer", phone: "+15125550111" },
        ],
      },
    });
    expect(ok.status).toBe(201);
    const id = SigningJson.parse(ok.body).id;
    expect(SigningJson.parse(ok.body).signerAuthMethod).toBe("access_code");
    const rows = await signerRows(id);
    expect(rows.map((r) => [r.email, r.authMethod, r.phone, r.accessCodeHash !== null])).toEqual([
      ["bo@example.test", null, null, true],
      ["cy@example.test", "sms_code", "+15125550111", false],
    ]);

    const own = await as(M, `${BASE}/signings`, { json: { locationId: world.austin.id, templateId, signerAuthMethod: "link" } });
    expect(SigningJson.parse(own.body).signerAuthMethod).toBe("link");

    const updated = await as(M, `${BASE}/templates/${templateId}`, { method: "PATCH", json: { signerAuthMethod: "email_code" } });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ signerAuthMethod: "email_code" });
    const later = await as(M, `${BASE}/signings`, { json: { locationId: world.austin.id, templateId } });
    expect(SigningJson.parse(later.body).signerAuthMethod).toBe("email_code");
  });
});

describe("OpenAPI document", () => {
  it("documents the new fields, with the access code write-only (in requests, never in responses)", async () => {
    const res = await as(M, "/v1/openapi.json");
    expect(res.status).toBe(200);
    type Schema = { properties?: Record<string, unknown>; allOf?: (Schema & { $ref?: string })[]; $ref?: string };
    const schemas = (res.body as { components: { schemas: Record<string, Schema> } }).components.schemas;
    // Properties of a component, following allOf and $ref (an extended schema is allOf: [base, extra]).
    const propsOf = (schema: Schema | undefined): string[] =>
      schema?.$ref
        ? propsOf(schemas[schema.$ref.split("/").at(-1)!])
        : [...Object.keys(schema?.properties ?? {}), ...(schema?.allOf ?? []).flatMap(propsOf)];
    const props = (name: string) => propsOf(schemas[name]);
    expect(props("Signing")).toContain("signerAuthMethod");
    expect(props("SigningDetailSigner")).toEqual(expect.arrayContaining(["authLockedUntil", "authFailures", "hasAccessCode"]));
    expect(props("UpdateSigningRequest")).toContain("signerAuthMethod");
    expect(props("UpdateSignerRequest")).toEqual(expect.arrayContaining(["authMethod", "accessCode", "phone"]));
    expect(props("Template")).toContain("signerAuthMethod");
    expect(props("TemplateRole")).toContain("authMethod");
    for (const response of ["Signing", "SigningDetail", "SigningDetailSigner", "Signer", "Template"]) expect(props(response)).not.toContain("accessCode");
  });
});
