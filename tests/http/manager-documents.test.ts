import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { packageDocuments, signingPackages } from "@/db/schema";
import { sha256Hex } from "@/lib/pdf/pdf";
import { createTestDb, type TestDb } from "../helpers/db";
import { auditEntriesFor } from "../helpers/fixtures";
import { as, BASE, createDraft, DocumentJson, loadManagerWorld, samplePdf, uploadPdf, PACKAGE_CHILD_ROLE_MATRIX } from "../helpers/manager";
import { ErrorBody } from "../helpers/schemas";
import { readObject } from "@/lib/storage/objects";

const docsOf = (id: string) => `${BASE}/signings/${id}/documents`;
const DocumentList = z.strictObject({ data: z.array(DocumentJson) });

let testDb: TestDb;
let world: Awaited<ReturnType<typeof loadManagerWorld>>;

beforeAll(async () => {
  testDb = await createTestDb();
  world = await loadManagerWorld(testDb.db);
});
afterAll(() => testDb.cleanup());

const documentRows = (id: string) => testDb.db.select().from(packageDocuments).where(eq(packageDocuments.packageId, id));
const draft = () => createDraft("manager@demo.local", { locationId: world.austin.id });

describe("package documents", () => {
  it("uploads a raw application/pdf body: 201 with SHA-256, size and page count; bytes stored", async () => {
    const id = await draft();
    const pdf = await samplePdf();
    const res = await uploadPdf("manager@demo.local", id, "Retail contract.pdf");
    expect(res.status).toBe(201);
    const doc = DocumentJson.parse(res.body);
    expect(doc).toMatchObject({ name: "Retail contract.pdf", sizeBytes: pdf.byteLength, sha256: sha256Hex(pdf), pageCount: 2, position: 0 });
    const [row] = await documentRows(id);
    expect(Buffer.from(await readObject(testDb.db, row!.storageKey)).equals(Buffer.from(pdf))).toBe(true);
    expect((await auditEntriesFor(testDb.db, id)).at(-1)).toMatchObject({ action: "document.added", after: expect.objectContaining({ sha256: doc.sha256 }) });
  });

  it("uploads a multipart/form-data `file` field and keeps its file name; positions follow upload order", async () => {
    const id = await draft();
    await uploadPdf("manager@demo.local", id, "First.pdf");
    const form = new FormData();
    form.set("file", new File([(await samplePdf()) as Uint8Array<ArrayBuffer>], "From form.pdf", { type: "application/pdf" }));
    const res = await as("manager@demo.local", docsOf(id), { method: "POST", body: form });
    expect(res.status).toBe(201);
    expect(DocumentJson.parse(res.body)).toMatchObject({ name: "From form.pdf", position: 1 });
    const list = await as("manager@demo.local", docsOf(id));
    expect(list.status).toBe(200);
    expect(DocumentList.parse(list.body).data.map((d) => d.name)).toEqual(["First.pdf", "From form.pdf"]);
  });

  it.each<[string, () => Promise<{ body: BodyInit; type?: string }>]>([
    ["bytes that are not a PDF", async () => ({ body: "hello, not a pdf", type: "application/pdf" })],
    ["a PDF header with garbage after it", async () => ({ body: "%PDF-1.7\n garbage garbage", type: "application/pdf" })],
    ["an empty body", async () => ({ body: "", type: "application/pdf" })],
    ["JSON instead of a PDF", async () => ({ body: '{"file":"x"}', type: "application/json" })],
    ["no content type", async () => ({ body: (await samplePdf()) as Uint8Array<ArrayBuffer> })],
    ["a form without a file field", async () => {
      const form = new FormData();
      form.set("name", "x.pdf");
      return { body: form };
    }],
    ["a form whose file is not a PDF", async () => {
      const form = new FormData();
      form.set("file", new File(["plain text"], "notes.txt", { type: "text/plain" }));
      return { body: form };
    }],
    ["a broken multipart body", async () => ({ body: "--x\r\nnonsense", type: "multipart/form-data; boundary=x" })],
  ])("400 for %s; nothing stored", async (_, make) => {
    const id = await draft();
    const { body, type } = await make();
    const res = await as("manager@demo.local", docsOf(id), { method: "POST", body, headers: type ? { "content-type": type } : {} });
    expect(res.status).toBe(400);
    ErrorBody.parse(res.body);
    expect(await documentRows(id)).toEqual([]);
  });

  it("413 above 10 MiB (the 1 MiB JSON limit does not apply to uploads)", async () => {
    const id = await draft();
    const big = new Uint8Array(10 * 1024 * 1024 + 70 * 1024);
    big.set(Buffer.from("%PDF-1.7\n"));
    const res = await as("manager@demo.local", docsOf(id), { method: "POST", body: big, headers: { "content-type": "application/pdf" } });
    expect(res.status).toBe(413);
    ErrorBody.parse(res.body);
    const justOver = new Uint8Array(10 * 1024 * 1024 + 1);
    justOver.set(Buffer.from("%PDF-1.7\n"));
    const res2 = await as("manager@demo.local", docsOf(id), { method: "POST", body: justOver, headers: { "content-type": "application/pdf" } });
    expect(res2.status).toBe(413);
    expect(await documentRows(id)).toEqual([]);
  });

  it("a 2 MiB PDF is accepted", async () => {
    const { PDFDocument } = await import("pdf-lib");
    const pdf = await PDFDocument.create();
    pdf.addPage();
    pdf.attach(randomBytes(2 * 1024 * 1024), "padding.bin");
    const bytes = await pdf.save({ useObjectStreams: false });
    expect(bytes.byteLength).toBeGreaterThan(1024 * 1024);
    const res = await as("manager@demo.local", docsOf(await draft()), {
      method: "POST",
      body: bytes as Uint8Array<ArrayBuffer>,
      headers: { "content-type": "application/pdf" },
    });
    expect(res.status).toBe(201);
  });

  it("GET …/file returns the exact PDF bytes as application/pdf", async () => {
    const id = await draft();
    const doc = DocumentJson.parse((await uploadPdf("manager@demo.local", id)).body);
    const response = await (await import("../helpers/api")).fetchApi(
      new Request(`http://core-api.test${docsOf(id)}/${doc.id}/file`, {
        headers: { authorization: `Bearer ${await (await import("../helpers/api")).tokenFor("manager@demo.local")}` },
      }),
    );
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/pdf");
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect(sha256Hex(bytes)).toBe(doc.sha256);
    const admin = await as("admin@demo.local", `${docsOf(id)}/${doc.id}/file`);
    expect(admin.status).toBe(200);
    const signer = await as("signer@demo.local", `${docsOf(id)}/${doc.id}/file`);
    expect(signer.status).toBe(403);
    const other = await as("manager@other.local", `${docsOf(id)}/${doc.id}/file`);
    expect(other.status).toBe(404);
    const missing = await as("manager@demo.local", `${docsOf(id)}/01935f4e-8b1c-7d2a-9f00-1a2b3c4d5e6f/file`);
    expect(missing.status).toBe(404);
    ErrorBody.parse(missing.body);
  });

  it("DELETE detaches a document from a draft (204); 404 for another package's document; 409 once sent", async () => {
    const id = await draft();
    const doc = DocumentJson.parse((await uploadPdf("manager@demo.local", id)).body);
    const elsewhere = await draft();
    expect((await as("manager@demo.local", `${docsOf(elsewhere)}/${doc.id}`, { method: "DELETE" })).status).toBe(404);
    const res = await as("manager@demo.local", `${docsOf(id)}/${doc.id}`, { method: "DELETE" });
    expect(res.status).toBe(204);
    expect(res.text).toBe("");
    expect(await documentRows(id)).toEqual([]);
    expect((await auditEntriesFor(testDb.db, id)).at(-1)!.action).toBe("document.removed");

    const sent = await draft();
    const kept = DocumentJson.parse((await uploadPdf("manager@demo.local", sent)).body);
    await testDb.db.update(signingPackages).set({ status: "sent" }).where(eq(signingPackages.id, sent));
    const del = await as("manager@demo.local", `${docsOf(sent)}/${kept.id}`, { method: "DELETE" });
    expect(del.status).toBe(409);
    const up = await uploadPdf("manager@demo.local", sent);
    expect(up.status).toBe(409);
    expect(up.body).toEqual({ error: "Only a draft signing package can change its documents; this one is sent." });
    expect(await documentRows(sent)).toHaveLength(1);
  });

  describe("role matrix", () => {
    it.each(PACKAGE_CHILD_ROLE_MATRIX)("%s on a %s package: list %i, upload %i", async (email, where, listStatus, uploadStatus) => {
      const id = await createDraft(where === "tulsa" ? "manager@other.local" : "manager@demo.local", { locationId: world[where].id });
      expect((await as(email, docsOf(id))).status).toBe(listStatus);
      const res = await uploadPdf(email, id);
      expect(res.status).toBe(uploadStatus);
      if (uploadStatus !== 201) expect(await documentRows(id)).toEqual([]);
    });
  });
});

describe("OpenAPI document", () => {
  it("describes every manager operation, uploads with an upload id or both inline media types", async () => {
    const res = await as("manager@demo.local", "/v1/openapi.json");
    expect(res.status).toBe(200);
    const paths = (res.body as { paths: Record<string, Record<string, { requestBody?: { content: Record<string, unknown> } }>> }).paths;
    const expected: [string, string[]][] = [
      ["/v1/signing/manager/signings", ["get", "post"]],
      ["/v1/signing/manager/signings/{id}", ["get", "patch", "delete"]],
      ["/v1/signing/manager/signings/{id}/send", ["post"]],
      ["/v1/signing/manager/signings/{id}/cancel", ["post"]],
      ["/v1/signing/manager/signings/{id}/signers", ["get", "post"]],
      ["/v1/signing/manager/signings/{id}/signers/{signerId}", ["patch", "delete"]],
      ["/v1/signing/manager/signings/{id}/documents", ["get", "post"]],
      ["/v1/signing/manager/signings/{id}/documents/{docId}", ["delete"]],
      ["/v1/signing/manager/signings/{id}/documents/{docId}/file", ["get"]],
      ["/v1/signing/manager/organizations", ["get", "post"]],
      ["/v1/signing/manager/organizations/{id}", ["get", "patch", "delete"]],
      ["/v1/signing/manager/companies", ["get", "post"]],
      ["/v1/signing/manager/companies/{id}", ["get", "patch", "delete"]],
      ["/v1/signing/manager/locations", ["get", "post"]],
      ["/v1/signing/manager/locations/{id}", ["get", "patch", "delete"]],
      ["/v1/signing/manager/templates", ["get", "post"]],
      ["/v1/signing/manager/templates/{id}", ["get", "patch"]],
      ["/v1/signing/manager/templates/{id}/documents", ["post"]],
      ["/v1/signing/manager/templates/{id}/documents/{docId}", ["delete", "patch"]],
      ["/v1/signing/manager/templates/{id}/documents/{docId}/file", ["get"]],
      ["/v1/signing/manager/flows", ["get", "post"]],
      ["/v1/signing/manager/flows/{id}", ["get", "patch"]],
    ];
    for (const [path, methods] of expected) {
      expect(Object.keys(paths[path] ?? {}).sort(), path).toEqual([...methods].sort());
    }
    expect(Object.keys(paths["/v1/signing/manager/signings/{id}/documents"]!.post!.requestBody!.content).sort()).toEqual([
      "application/json",
      "application/pdf",
      "multipart/form-data",
    ]);
  });
});
