import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { handleSignForm } from "@/app/(signer)/signings/[id]/sign-form";
import { auditLog, documentFields, eSignatures, packageDocuments, packageSigners } from "@/db/schema";
import { localSubjectForEmail } from "@/lib/auth/local-tokens";
import { resolvePrincipal } from "@/lib/auth/principal";
import { recordSigningConsent } from "@/lib/signings/record-signing-consent";
import { createTestDb, type TestDb } from "../helpers/db";
import { as, BASE, createDraft, loadManagerWorld, samplePdf, uploadPdf } from "../helpers/manager";
import { ErrorBody } from "../helpers/schemas";
import { createUser } from "../helpers/fixtures";

// Fields on document pages: placing them (packages and templates), the copy into a package made
// from a template, and filling them when signing — through /v1 and through the sign form's handler.

const iso = z.iso.datetime();
const FieldType = z.enum(["signature", "initials", "date_signed", "full_name", "text", "checkbox"]);
const Geometry = { id: z.uuid(), documentId: z.uuid(), type: FieldType, page: z.number().int(), x: z.number(), y: z.number(), width: z.number(), height: z.number(), required: z.boolean(), label: z.string().nullable() };
const PackageField = z.strictObject({ ...Geometry, signerId: z.uuid(), value: z.string().nullable(), filledAt: iso.nullable() });
const TemplateField = z.strictObject({ ...Geometry, roleKey: z.string() });
const PackageFields = z.strictObject({ data: z.array(PackageField) });
const TemplateFields = z.strictObject({ data: z.array(TemplateField) });

let testDb: TestDb;
let world: Awaited<ReturnType<typeof loadManagerWorld>>;
let n = 0;
const unique = (name: string) => `${name}-${++n}-${randomUUID().slice(0, 6)}@fields.test`;

beforeAll(async () => {
  testDb = await createTestDb();
  world = await loadManagerWorld(testDb.db);
});
afterAll(() => testDb.cleanup());

/** A draft at Austin with the given signers and one two-page Letter PDF (612 × 792 points). */
async function draftWithDocument(signerEmails: string[]) {
  for (const email of signerEmails) {
    const [exists] = await testDb.db.select().from(packageSigners).where(eq(packageSigners.email, email)).limit(1);
    if (!exists) await createUser(testDb.db, email).catch(() => undefined);
  }
  const id = await createDraft("manager@demo.local", {
    locationId: world.austin.id,
    title: `Fields ${++n}`,
    signers: signerEmails.map((email, i) => ({ name: `Signer ${i + 1} ${n}`, email })),
  });
  const upload = await uploadPdf("manager@demo.local", id);
  expect(upload.status).toBe(201);
  const documentId = (upload.body as { id: string }).id;
  const signers = await testDb.db.select().from(packageSigners).where(eq(packageSigners.packageId, id));
  const signerId = (email: string) => signers.find((s) => s.email === email)!.id;
  return { id, documentId, signerId, signers };
}

const fieldsPath = (signingId: string, documentId: string) => `${BASE}/signings/${signingId}/documents/${documentId}/fields`;
const put = (email: string, path: string, fields: unknown[]) => as(email, path, { method: "PUT", json: { fields } });

describe("placing fields on a package document", () => {
  it("stores them in PDF points, lists them in reading order, refuses bad placements with nothing changed, and freezes them once sent", async () => {
    const a = unique("place-a");
    const b = unique("place-b");
    const draft = await draftWithDocument([a, b]);
    const path = fieldsPath(draft.id, draft.documentId);
    expect(PackageFields.parse((await as("manager@demo.local", path)).body).data).toEqual([]);

    const placed = await put("manager@demo.local", path, [
      { signerId: draft.signerId(a), type: "signature", page: 2, x: 56, y: 100, width: 180, height: 40 },
      { signerId: draft.signerId(a), type: "text", page: 1, x: 56, y: 500.5, width: 200, height: 24, label: "Vehicle VIN" },
      { signerId: draft.signerId(b), type: "checkbox", page: 1, x: 300, y: 600, width: 14, height: 14, required: false },
    ]);
    expect(placed.status).toBe(200);
    const listed = PackageFields.parse((await as("manager@demo.local", path)).body).data;
    // Page 1 top to bottom (y grows upwards), then page 2.
    expect(listed.map((f) => [f.type, f.page, f.y])).toEqual([
      ["checkbox", 1, 600],
      ["text", 1, 500.5],
      ["signature", 2, 100],
    ]);
    expect(listed[1]).toMatchObject({ signerId: draft.signerId(a), x: 56, width: 200, height: 24, required: true, label: "Vehicle VIN", value: null, filledAt: null });
    expect(listed[0]).toMatchObject({ signerId: draft.signerId(b), required: false, label: null });

    const good = { signerId: draft.signerId(a), type: "text", page: 1, x: 10, y: 10, width: 100, height: 20 };
    const refused: [unknown, RegExp][] = [
      [{ ...good, page: 3 }, /fields\[0\]\.page: the document has 2 pages/],
      [{ ...good, x: 600, width: 20 }, /fields\[0\]: the field must lie inside page 1 \(612 × 792 points\)/],
      [{ ...good, y: 780 }, /inside page 1/],
      [{ ...good, signerId: randomUUID() }, /fields\[0\]\.signerId: .* is not a signer of this package/],
      [{ ...good, width: 2 }, /width/],
      [{ ...good, x: -1 }, /x/],
      [{ ...good, type: "stamp" }, /type/],
      [{ ...good, extra: 1 }, /extra|Unrecognized|unrecognized/],
    ];
    for (const [field, message] of refused) {
      const res = await put("manager@demo.local", path, [field]);
      expect(res.status, JSON.stringify(field)).toBe(400);
      expect(ErrorBody.parse(res.body).error).toMatch(message);
    }
    expect(PackageFields.parse((await as("manager@demo.local", path)).body).data).toEqual(listed);

    // Who may: a signer has no manager role (403); another organization's manager does not see it (404).
    expect((await put("signer@demo.local", path, [])).status).toBe(403);
    expect((await as("manager@other.local", path)).status).toBe(404);
    expect((await put("manager@other.local", path, [])).status).toBe(404);
    expect((await as("manager@demo.local", fieldsPath(draft.id, randomUUID()))).status).toBe(404);

    const audit = await testDb.db.select().from(auditLog).where(and(eq(auditLog.packageId, draft.id), eq(auditLog.action, "document.fields_replaced")));
    expect(audit).toHaveLength(1);

    // Removing a signer removes their fields.
    expect((await as("manager@demo.local", `${BASE}/signings/${draft.id}/signers/${draft.signerId(b)}`, { method: "DELETE" })).status).toBe(204);
    expect(PackageFields.parse((await as("manager@demo.local", path)).body).data.map((f) => f.type)).toEqual(["text", "signature"]);

    expect((await as("manager@demo.local", `${BASE}/signings/${draft.id}/send`, { method: "POST", json: {} })).status).toBe(200);
    const frozen = await put("manager@demo.local", path, []);
    expect(frozen.status).toBe(409);
    expect(ErrorBody.parse(frozen.body).error).toMatch(/Only a draft signing package can change its fields/);
    expect(PackageFields.parse((await as("manager@demo.local", path)).body).data).toHaveLength(2);
  });
});

describe("template fields", () => {
  it("are placed per role and copied into a package made from the template, for the signers given those roles", async () => {
    const created = await as("manager@demo.local", `${BASE}/templates`, {
      method: "POST",
      json: {
        organizationId: world.austin.organizationId,
        name: `Fields template ${++n}`,
        roles: [
          { key: "buyer", label: "Buyer", role: "signer", routingOrder: 1 },
          { key: "cobuyer", label: "Co-buyer", role: "co_signer", routingOrder: 1 },
        ],
      },
    });
    const templateId = (created.body as { id: string }).id;
    const upload = await as("manager@demo.local", `${BASE}/templates/${templateId}/documents?name=RIC.pdf`, {
      method: "POST",
      body: (await samplePdf()) as Uint8Array<ArrayBuffer>,
      headers: { "content-type": "application/pdf" },
    });
    const templateDocumentId = (upload.body as { id: string }).id;
    const path = `${BASE}/templates/${templateId}/documents/${templateDocumentId}/fields`;

    const unknownRole = await put("manager@demo.local", path, [{ roleKey: "seller", type: "signature", page: 1, x: 0, y: 0, width: 100, height: 30 }]);
    expect(unknownRole.status).toBe(400);
    expect(ErrorBody.parse(unknownRole.body).error).toMatch(/fields\[0\]\.roleKey: the template has no role "seller" \(roles: buyer, cobuyer\)/);
    expect((await put("company@demo.local", path, [])).status).toBe(403);

    const placed = await put("manager@demo.local", path, [
      { roleKey: "buyer", type: "signature", page: 2, x: 56, y: 120, width: 200, height: 40 },
      { roleKey: "buyer", type: "date_signed", page: 2, x: 300, y: 120, width: 100, height: 20 },
      { roleKey: "cobuyer", type: "initials", page: 1, x: 500, y: 40, width: 40, height: 20 },
    ]);
    expect(placed.status).toBe(200);
    expect(TemplateFields.parse((await as("branch@demo.local", path)).body).data.map((f) => [f.roleKey, f.type])).toEqual([
      ["cobuyer", "initials"],
      ["buyer", "signature"],
      ["buyer", "date_signed"],
    ]);

    // Only the buyer role is taken: the co-buyer's initials have nobody to fill them and stay behind.
    const buyer = unique("buyer");
    const signingId = await createDraft("manager@demo.local", {
      locationId: world.austin.id,
      templateId,
      signers: [{ name: "Bea Buyer", email: buyer, templateRole: "buyer" }, { name: "Otto Other", email: unique("other") }],
    });
    const [document] = await testDb.db.select().from(packageDocuments).where(eq(packageDocuments.packageId, signingId));
    const signers = await testDb.db.select().from(packageSigners).where(eq(packageSigners.packageId, signingId));
    const copied = PackageFields.parse((await as("manager@demo.local", fieldsPath(signingId, document!.id))).body).data;
    expect(copied.map((f) => [f.type, f.page, f.x, f.y, f.width, f.height])).toEqual([
      ["signature", 2, 56, 120, 200, 40],
      ["date_signed", 2, 300, 120, 100, 20],
    ]);
    expect(new Set(copied.map((f) => f.signerId))).toEqual(new Set([signers.find((s) => s.email === buyer)!.id]));
    // The template keeps its own fields.
    expect(TemplateFields.parse((await as("manager@demo.local", path)).body).data).toHaveLength(3);
  });
});

describe("filling fields when signing", () => {
  const signerPath = (id: string, docId: string) => `/v1/signing/signer/signings/${id}/documents/${docId}`;
  const typed = (extra: Record<string, unknown> = {}) => ({ kind: "typed", text: "Fay Filler", font: "caveat", consent: true, ...extra });

  async function sentPackageWithFields() {
    const signer = unique("filler");
    const other = unique("other-filler");
    const draft = await draftWithDocument([signer, other]);
    const me = draft.signerId(signer);
    const put1 = await put("manager@demo.local", fieldsPath(draft.id, draft.documentId), [
      { signerId: me, type: "signature", page: 2, x: 56, y: 100, width: 180, height: 40 },
      { signerId: me, type: "text", page: 1, x: 56, y: 500, width: 200, height: 24, label: "Vehicle VIN" },
      { signerId: me, type: "checkbox", page: 1, x: 56, y: 450, width: 14, height: 14, label: "I agree" },
      { signerId: me, type: "text", page: 1, x: 56, y: 400, width: 200, height: 24, label: "Notes", required: false },
      { signerId: me, type: "date_signed", page: 2, x: 300, y: 100, width: 100, height: 20 },
      { signerId: me, type: "full_name", page: 2, x: 300, y: 130, width: 150, height: 20 },
      { signerId: draft.signerId(other), type: "text", page: 1, x: 300, y: 500, width: 200, height: 24, label: "Other's text" },
    ]);
    expect(put1.status).toBe(200);
    expect((await as("manager@demo.local", `${BASE}/signings/${draft.id}/send`, { method: "POST", json: {} })).status).toBe(200);
    const myFields = PackageFields.parse((await as(signer, `${signerPath(draft.id, draft.documentId)}/fields`)).body).data;
    const byLabel = (label: string) => myFields.find((f) => f.label === label)!;
    const name = draft.signers.find((s) => s.email === signer)!.name;
    return { ...draft, signer, other, me, myFields, byLabel, name };
  }

  it("answers 409 listing the unfilled required fields, 400 for values that are not the caller's or not valid, and stamps date and name on success", async () => {
    const p = await sentPackageWithFields();
    // The signer sees only their own six fields, in reading order.
    expect(p.myFields.map((f) => f.type)).toEqual(["text", "checkbox", "text", "full_name", "signature", "date_signed"]);
    expect(p.myFields.every((f) => f.signerId === p.me)).toBe(true);
    const esign = (body: unknown, headers: Record<string, string> = {}) =>
      as(p.signer, `${signerPath(p.id, p.documentId)}/esignatures`, { method: "POST", json: body, headers });
    const signatureCount = async () => (await testDb.db.select().from(eSignatures).where(eq(eSignatures.packageId, p.id))).length;

    const missing = await esign(typed());
    expect(missing.status).toBe(409);
    const message = ErrorBody.parse(missing.body).error;
    expect(ErrorBody.parse(missing.body).reason).toBe("missing_fields");
    expect(message).toMatch(/^Fill the required fields before signing: /);
    expect(message).toContain(`text "Vehicle VIN" on page 1 (field ${p.byLabel("Vehicle VIN").id})`);
    expect(message).toContain(`checkbox "I agree" on page 1 (field ${p.byLabel("I agree").id})`);
    expect(message).not.toContain("Notes");
    // An unticked required checkbox is still missing.
    const unticked = await esign(typed({ fields: [{ id: p.byLabel("Vehicle VIN").id, value: "VIN123" }, { id: p.byLabel("I agree").id, value: false }] }));
    expect(unticked.status).toBe(409);
    expect(ErrorBody.parse(unticked.body).error).not.toContain("Vehicle VIN");
    expect(ErrorBody.parse(unticked.body).error).toContain("I agree");

    const dateField = p.myFields.find((f) => f.type === "date_signed")!;
    const otherField = (
      await testDb.db.select().from(documentFields).where(and(eq(documentFields.documentId, p.documentId), eq(documentFields.signerId, p.signerId(p.other))))
    )[0]!;
    const bad: [unknown, RegExp][] = [
      [[{ id: dateField.id, value: "01/01/1999" }], /fields\[0\]\.value: a date signed field is filled by the service/],
      [[{ id: otherField.id, value: "mine now" }], /fields\[0\]\.id: .* is not one of your fields on this document/],
      [[{ id: p.byLabel("I agree").id, value: "yes" }], /fields\[0\]\.value: a checkbox takes true or false/],
      [[{ id: p.byLabel("Vehicle VIN").id, value: true }], /fields\[0\]\.value: a text field takes a string/],
      [[{ id: p.byLabel("Vehicle VIN").id, value: "x".repeat(501) }], /500/],
      [[{ id: p.byLabel("Vehicle VIN").id, value: "a" }, { id: p.byLabel("Vehicle VIN").id, value: "b" }], /each field id once/],
    ];
    for (const [i, [fields, pattern]] of bad.entries()) {
      const res = await esign(typed({ fields }));
      expect(res.status, JSON.stringify(fields)).toBe(400);
      expect(ErrorBody.parse(res.body).error).toMatch(pattern);
      // The first four are refused by the field rules (the rest by the request schema, which has no reason).
      if (i < 4) expect(ErrorBody.parse(res.body).reason).toBe("invalid_field");
    }
    expect(await signatureCount()).toBe(0);
    expect((await testDb.db.select().from(documentFields).where(eq(documentFields.signerId, p.me))).every((f) => f.value === null)).toBe(true);

    const body = typed({
      fields: [
        { id: p.byLabel("Vehicle VIN").id, value: "  1HGCM82633A004352 " },
        { id: p.byLabel("I agree").id, value: true },
      ],
    });
    const signed = await esign(body, { "idempotency-key": "fields-sign-1" });
    expect(signed.status).toBe(201);
    const signedAt = new Date((signed.body as { createdAt: string }).createdAt);
    const pad = (v: number) => String(v).padStart(2, "0");
    const expectedDate = `${pad(signedAt.getUTCMonth() + 1)}/${pad(signedAt.getUTCDate())}/${signedAt.getUTCFullYear()}`;

    const after = PackageFields.parse((await as(p.signer, `${signerPath(p.id, p.documentId)}/fields`)).body).data;
    const valueOf = (type: string, label?: string) => after.find((f) => f.type === type && (label === undefined || f.label === label))!;
    expect(valueOf("text", "Vehicle VIN").value).toBe("1HGCM82633A004352");
    expect(valueOf("checkbox").value).toBe("true");
    expect(valueOf("text", "Notes").value).toBeNull();
    expect(valueOf("date_signed").value).toBe(expectedDate);
    expect(valueOf("full_name").value).toBe(p.name);
    expect(valueOf("signature").value).toBeNull();
    expect(after.every((f) => f.filledAt === signedAt.toISOString())).toBe(true);
    // The other signer's field is untouched, and the manager sees the values too.
    const managerView = PackageFields.parse((await as("manager@demo.local", fieldsPath(p.id, p.documentId))).body).data;
    expect(managerView.find((f) => f.label === "Other's text")!.value).toBeNull();
    expect(managerView.find((f) => f.label === "Vehicle VIN")!.value).toBe("1HGCM82633A004352");

    // A retry answers with the same record and changes nothing.
    const retry = await esign(body, { "idempotency-key": "fields-sign-1" });
    expect(retry.status).toBe(200);
    expect(await signatureCount()).toBe(1);
    const [entry] = await testDb.db.select().from(auditLog).where(and(eq(auditLog.packageId, p.id), eq(auditLog.action, "esignature.recorded")));
    expect((entry!.after as { fields: { type: string; value: string | null }[] }).fields.map((f) => f.value)).toContain("1HGCM82633A004352");
  });

  it("a document without fields for the signer signs as before and refuses field values", async () => {
    const signer = unique("plain");
    const draft = await draftWithDocument([signer]);
    expect((await as("manager@demo.local", `${BASE}/signings/${draft.id}/send`, { method: "POST", json: {} })).status).toBe(200);
    const path = `${signerPath(draft.id, draft.documentId)}/esignatures`;
    expect(PackageFields.parse((await as(signer, `${signerPath(draft.id, draft.documentId)}/fields`)).body).data).toEqual([]);
    const withValue = await as(signer, path, { method: "POST", json: typed({ fields: [{ id: randomUUID(), value: "x" }] }) });
    expect(withValue.status).toBe(400);
    expect((await as(signer, path, { method: "POST", json: typed() })).status).toBe(201);
  });

  it("the sign form posts field values as field:<id> entries and says in words what is missing", async () => {
    const p = await sentPackageWithFields();
    const principal = await resolvePrincipal(testDb.db, localSubjectForEmail(p.signer));
    await recordSigningConsent(testDb.db, { principal, packageId: p.id, disclosureVersion: "2025-01" });
    const evidence = { ipAddress: "203.0.113.9", userAgent: "Vitest form" };
    const [document] = await testDb.db.select().from(packageDocuments).where(eq(packageDocuments.id, p.documentId));
    const form = (entries: Record<string, string>) => {
      const data = new FormData();
      const base = { signingId: p.id, documentId: p.documentId, documentSha256: document!.sha256, idempotencyKey: randomUUID(), kind: "typed", text: "Fay Filler", font: "caveat" };
      for (const [k, v] of Object.entries({ ...base, ...entries })) data.set(k, v);
      return data;
    };
    const missing = await handleSignForm(testDb.db, { principal, evidence, formData: form({ [`field:${p.byLabel("Vehicle VIN").id}`]: "VIN-9" }) });
    expect(missing).toEqual({ status: "error", reason: "fields", message: expect.stringContaining("Next field") });

    const signed = await handleSignForm(testDb.db, {
      principal,
      evidence,
      formData: form({ [`field:${p.byLabel("Vehicle VIN").id}`]: "VIN-9", [`field:${p.byLabel("I agree").id}`]: "true" }),
    });
    expect(signed.status).toBe("signed");
    const rows = await testDb.db.select().from(documentFields).where(eq(documentFields.signerId, p.me));
    expect(rows.find((f) => f.label === "Vehicle VIN")!.value).toBe("VIN-9");
    expect(rows.find((f) => f.label === "I agree")!.value).toBe("true");
    expect(rows.find((f) => f.type === "full_name")!.value).toBe(p.name);
  });
});
