import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { auditLog, flows, templateDocuments, templates } from "@/db/schema";
import { createTestDb, type TestDb } from "../helpers/db";
import { as, BASE, DocumentJson, loadManagerWorld, samplePdf } from "../helpers/manager";
import { ErrorBody, pageOf } from "../helpers/schemas";

const iso = z.iso.datetime();
const Method = z.enum(["link", "email_code", "access_code", "sms_code", "account"]);
const Role = z.strictObject({ key: z.string(), label: z.string(), role: z.enum(["signer", "co_signer"]), routingOrder: z.number().int(), authMethod: Method.optional() });
const Template = z.strictObject({
  id: z.uuid(),
  organizationId: z.number().int(),
  name: z.string(),
  description: z.string().nullable(),
  roles: z.array(Role),
  signerAuthMethod: Method,
  createdByUserId: z.uuid().nullable(),
  createdAt: iso,
  updatedAt: iso,
});
const ExecutionMode = z.enum(["esign", "wet_sign", "notarize", "review_only"]);
const TemplateDocument = DocumentJson.extend({ executionMode: ExecutionMode, transferable: z.boolean().optional() }).strict();
const TemplateDetail = Template.extend({ documents: z.array(TemplateDocument) }).strict();
const Flow = z.strictObject({
  id: z.uuid(),
  organizationId: z.number().int(),
  name: z.string(),
  steps: z.array(z.enum(["review", "sign", "link_bank", "upload_documents", "done"])),
  isDefault: z.boolean(),
  createdAt: iso,
  updatedAt: iso,
});

let testDb: TestDb;
let world: Awaited<ReturnType<typeof loadManagerWorld>>;
let demoOrg: number;

beforeAll(async () => {
  testDb = await createTestDb();
  world = await loadManagerWorld(testDb.db);
  demoOrg = world.austin.organizationId;
});
afterAll(() => testDb.cleanup());

const roles = [
  { key: "buyer", label: "Buyer", role: "signer", routingOrder: 1 },
  { key: "cobuyer", label: "Co-buyer", role: "co_signer", routingOrder: 1 },
];

async function createTemplate(email = "manager@demo.local", body: Record<string, unknown> = {}) {
  return as(email, `${BASE}/templates`, { method: "POST", json: { organizationId: demoOrg, name: "RIC", roles, ...body } });
}

const actionsFor = async (entityId: string) =>
  (await testDb.db.select().from(auditLog).where(eq(auditLog.entityId, entityId))).map((e) => e.action);

describe("templates", () => {
  it("create (201) → upload a document → read with documents → update (200), all audited", async () => {
    const created = await createTemplate();
    expect(created.status).toBe(201);
    const template = Template.parse(created.body);
    expect(template.roles).toEqual(roles);

    const upload = await as("manager@demo.local", `${BASE}/templates/${template.id}/documents?name=RIC.pdf`, {
      method: "POST",
      body: (await samplePdf()) as Uint8Array<ArrayBuffer>,
      headers: { "content-type": "application/pdf" },
    });
    expect(upload.status).toBe(201);
    const form = new FormData();
    form.set("file", new File([(await samplePdf()) as Uint8Array<ArrayBuffer>], "Addendum.pdf"));
    expect((await as("manager@demo.local", `${BASE}/templates/${template.id}/documents`, { method: "POST", body: form })).status).toBe(201);

    const read = await as("branch@demo.local", `${BASE}/templates/${template.id}`);
    expect(read.status).toBe(200);
    expect(TemplateDetail.parse(read.body).documents.map((d) => [d.name, d.position])).toEqual([
      ["RIC.pdf", 0],
      ["Addendum.pdf", 1],
    ]);

    const patched = await as("owner@demo.local", `${BASE}/templates/${template.id}`, {
      method: "PATCH",
      json: { name: "RIC v2", description: "Updated", roles: [roles[0]] },
    });
    expect(patched.status).toBe(200);
    expect(Template.parse(patched.body)).toMatchObject({ name: "RIC v2", description: "Updated", roles: [roles[0]] });
    expect(await actionsFor(template.id)).toEqual(["template.created", "template.updated"]);

    const [first] = TemplateDetail.parse(read.body).documents;
    const file = await as("company@demo.local", `${BASE}/templates/${template.id}/documents/${first!.id}/file`);
    expect(file.status).toBe(200);
    expect(file.headers.get("content-type")).toBe("application/pdf");
    expect((await as("manager@other.local", `${BASE}/templates/${template.id}/documents/${first!.id}/file`)).status).toBe(404);
    expect((await as("company@demo.local", `${BASE}/templates/${template.id}/documents/${first!.id}`, { method: "DELETE" })).status).toBe(403);
    const removed = await as("manager@demo.local", `${BASE}/templates/${template.id}/documents/${first!.id}`, { method: "DELETE" });
    expect(removed.status).toBe(204);
    expect(removed.text).toBe("");
    expect((await as("manager@demo.local", `${BASE}/templates/${template.id}/documents/${first!.id}`, { method: "DELETE" })).status).toBe(404);
    expect(TemplateDetail.parse((await as("manager@demo.local", `${BASE}/templates/${template.id}`)).body).documents.map((d) => d.name)).toEqual([
      "Addendum.pdf",
    ]);
    expect(await actionsFor(first!.id)).toEqual(["template.document_added", "template.document_removed"]);
  });

  it("a template document's execution mode: set on upload (?executionMode=) or by PATCH (audited), refused when unknown, copied into packages", async () => {
    const template = Template.parse((await createTemplate("manager@demo.local", { name: "Hybrid modes" })).body);
    const upload = await as("manager@demo.local", `${BASE}/templates/${template.id}/documents?name=Note.pdf&executionMode=wet_sign`, {
      method: "POST",
      body: (await samplePdf()) as Uint8Array<ArrayBuffer>,
      headers: { "content-type": "application/pdf" },
    });
    expect(upload.status).toBe(201);
    const note = TemplateDocument.parse(upload.body);
    expect(note.executionMode).toBe("wet_sign");
    const badUpload = await as("manager@demo.local", `${BASE}/templates/${template.id}/documents?name=X.pdf&executionMode=fax`, {
      method: "POST",
      body: (await samplePdf()) as Uint8Array<ArrayBuffer>,
      headers: { "content-type": "application/pdf" },
    });
    expect(badUpload.status).toBe(400);

    const path = `${BASE}/templates/${template.id}/documents/${note.id}`;
    expect((await as("manager@demo.local", path, { method: "PATCH", json: { executionMode: "paper" } })).status).toBe(400);
    expect((await as("company@demo.local", path, { method: "PATCH", json: { executionMode: "notarize" } })).status).toBe(403);
    expect((await as("manager@other.local", path, { method: "PATCH", json: { executionMode: "notarize" } })).status).toBe(404);
    const patched = await as("manager@demo.local", path, { method: "PATCH", json: { executionMode: "notarize" } });
    expect(patched.status).toBe(200);
    expect(TemplateDocument.parse(patched.body)).toMatchObject({ id: note.id, name: "Note.pdf", executionMode: "notarize" });
    expect(TemplateDetail.parse((await as("branch@demo.local", `${BASE}/templates/${template.id}`)).body).documents.map((d) => d.executionMode)).toEqual(["notarize"]);
    expect(await actionsFor(note.id)).toEqual(["template.document_added", "template.document_execution_mode_changed"]);

    const created = await as("manager@demo.local", `${BASE}/signings`, { method: "POST", json: { locationId: world.austin.id, templateId: template.id } });
    expect(created.status).toBe(201);
    const closing = await as("manager@demo.local", `${BASE}/signings/${(created.body as { id: string }).id}/closing`);
    expect((closing.body as { documents: { name: string; executionMode: string }[] }).documents.map((d) => [d.name, d.executionMode])).toEqual([["Note.pdf", "notarize"]]);
  });

  it("lists the organization's templates newest first; other organizations see none of them; admin sees all with the cap", async () => {
    const a = Template.parse((await createTemplate("manager@demo.local", { name: "List A" })).body);
    const b = Template.parse((await createTemplate("manager@demo.local", { name: "List B" })).body);
    const mine = pageOf(Template).parse((await as("company@demo.local", `${BASE}/templates?limit=100`)).body);
    expect(mine.data.slice(0, 2).map((t) => t.id)).toEqual([b.id, a.id]);
    expect(pageOf(Template).parse((await as("manager@other.local", `${BASE}/templates`)).body).data).toEqual([]);
    const admin = pageOf(Template).parse((await as("admin@demo.local", `${BASE}/templates`)).body);
    expect(admin.cap).toBeGreaterThan(0);
    expect((await as("signer@demo.local", `${BASE}/templates`)).status).toBe(403);
    expect((await as("manager@other.local", `${BASE}/templates/${a.id}`)).status).toBe(404);
  });

  it.each([
    ["duplicate role keys", { roles: [roles[0], roles[0]] }],
    ["bad role", { roles: [{ ...roles[0], role: "notary" }] }],
    ["missing name", { name: undefined }],
    ["string organization id", { organizationId: "1" }],
    ["unknown field", { documents: [] }],
  ])("create: 400 for %s, nothing created", async (_, body) => {
    const before = (await testDb.db.select().from(templates)).length;
    const res = await createTemplate("manager@demo.local", body);
    expect(res.status).toBe(400);
    ErrorBody.parse(res.body);
    expect(await testDb.db.select().from(templates)).toHaveLength(before);
  });

  it.each<[string, number]>([
    ["signer@demo.local", 403],
    ["cosigner@demo.local", 403],
    ["admin@demo.local", 403],
    ["branch@demo.local", 403],
    ["company@demo.local", 403],
    ["manager@other.local", 404],
    ["owner@demo.local", 201],
    ["manager@demo.local", 201],
  ])("create as %s → %i", async (email, status) => {
    const res = await createTemplate(email);
    expect(res.status).toBe(status);
  });

  it("company- and location-level managers read templates but may not change them; uploads are validated", async () => {
    const template = Template.parse((await createTemplate()).body);
    expect((await as("company@demo.local", `${BASE}/templates/${template.id}`, { method: "PATCH", json: { name: "X" } })).status).toBe(403);
    expect((await as("manager@other.local", `${BASE}/templates/${template.id}`, { method: "PATCH", json: { name: "X" } })).status).toBe(404);
    expect((await as("manager@demo.local", `${BASE}/templates/${template.id}`, { method: "PATCH", json: {} })).status).toBe(400);
    const notPdf = await as("manager@demo.local", `${BASE}/templates/${template.id}/documents`, {
      method: "POST",
      body: "nope",
      headers: { "content-type": "application/pdf" },
    });
    expect(notPdf.status).toBe(400);
    const branchUpload = await as("branch@demo.local", `${BASE}/templates/${template.id}/documents`, {
      method: "POST",
      body: (await samplePdf()) as Uint8Array<ArrayBuffer>,
      headers: { "content-type": "application/pdf" },
    });
    expect(branchUpload.status).toBe(403);
    expect(await testDb.db.select().from(templateDocuments).where(eq(templateDocuments.templateId, template.id))).toEqual([]);
    expect((await as("manager@demo.local", `${BASE}/templates/not-a-uuid`)).status).toBe(404);
  });
});

describe("flows", () => {
  it("lists the seeded default flow; creates a new default, which unsets the previous one", async () => {
    const list = pageOf(Flow).parse((await as("manager@demo.local", `${BASE}/flows`)).body);
    const previous = list.data.find((f) => f.isDefault)!;
    expect(previous.steps).toEqual(["review", "sign", "link_bank", "done"]);

    const res = await as("manager@demo.local", `${BASE}/flows`, {
      method: "POST",
      json: { organizationId: demoOrg, name: "Sign and upload", steps: ["review", "sign", "upload_documents", "done"], isDefault: true },
    });
    expect(res.status).toBe(201);
    const flow = Flow.parse(res.body);
    const [old] = await testDb.db.select().from(flows).where(eq(flows.id, previous.id));
    expect(old!.isDefault).toBe(false);
    expect(await actionsFor(flow.id)).toEqual(["flow.created"]);

    const signing = await as("manager@demo.local", `${BASE}/signings`, { method: "POST", json: { locationId: world.austin.id } });
    expect((signing.body as { flowId: string }).flowId).toBe(flow.id);

    const back = await as("owner@demo.local", `${BASE}/flows/${previous.id}`, { method: "PATCH", json: { isDefault: true, name: "Standard" } });
    expect(back.status).toBe(200);
    expect(Flow.parse(back.body)).toMatchObject({ isDefault: true, name: "Standard" });
    expect((await testDb.db.select().from(flows).where(eq(flows.id, flow.id)))[0]!.isDefault).toBe(false);
    expect(Flow.parse((await as("branch@demo.local", `${BASE}/flows/${flow.id}`)).body).id).toBe(flow.id);
  });

  it.each([
    ["unknown step", ["review", "notarize", "done"]],
    ["no sign step", ["review", "done"]],
    ["not ending in done", ["sign", "review"]],
    ["repeated step", ["sign", "sign", "done"]],
    ["too short", ["done"]],
    ["not an array", "sign,done"],
  ])("400 for %s", async (_, steps) => {
    const res = await as("manager@demo.local", `${BASE}/flows`, { method: "POST", json: { organizationId: demoOrg, name: "Bad", steps } });
    expect(res.status).toBe(400);
    ErrorBody.parse(res.body);
  });

  it("PATCH validates, scopes and refuses unsetting the default", async () => {
    const flow = Flow.parse(
      (await as("manager@demo.local", `${BASE}/flows`, { method: "POST", json: { organizationId: demoOrg, name: "F", steps: ["sign", "done"] } })).body,
    );
    expect((await as("manager@demo.local", `${BASE}/flows/${flow.id}`, { method: "PATCH", json: { isDefault: false } })).status).toBe(400);
    expect((await as("manager@demo.local", `${BASE}/flows/${flow.id}`, { method: "PATCH", json: { steps: ["done"] } })).status).toBe(400);
    expect((await as("manager@other.local", `${BASE}/flows/${flow.id}`, { method: "PATCH", json: { name: "X" } })).status).toBe(404);
    expect((await as("company@demo.local", `${BASE}/flows/${flow.id}`, { method: "PATCH", json: { name: "X" } })).status).toBe(403);
    expect((await as("admin@demo.local", `${BASE}/flows/${flow.id}`, { method: "PATCH", json: { name: "X" } })).status).toBe(403);
    expect((await as("signer@demo.local", `${BASE}/flows/${flow.id}`)).status).toBe(403);
    expect((await as("admin@demo.local", `${BASE}/flows/${flow.id}`)).status).toBe(200);
    const ok = await as("manager@demo.local", `${BASE}/flows/${flow.id}`, { method: "PATCH", json: { steps: ["review", "sign", "link_bank", "done"] } });
    expect(Flow.parse(ok.body).steps).toEqual(["review", "sign", "link_bank", "done"]);
  });

  it.each<[string, number]>([
    ["signer@demo.local", 403],
    ["admin@demo.local", 403],
    ["branch@demo.local", 403],
    ["manager@other.local", 404],
    ["owner@demo.local", 201],
  ])("create as %s → %i", async (email, status) => {
    const res = await as(email, `${BASE}/flows`, { method: "POST", json: { organizationId: demoOrg, name: "M", steps: ["sign", "done"] } });
    expect(res.status).toBe(status);
  });
});
