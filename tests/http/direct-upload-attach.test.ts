import { createHash } from "node:crypto";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { renderAgreementPdf } from "@/lib/pdf/pdf";
import { setEnvForTests } from "@/lib/env";
import { startS3rver, type RunningS3 } from "../fakes/s3/start-s3rver";
import { fetchApi, tokenFor } from "../helpers/api";
import { createTestDb, type TestDb } from "../helpers/db";
import { as, BASE, loadManagerWorld } from "../helpers/manager";

// The forms that took bytes only (chattel files, scanbacks, the logo) attach a direct upload by id
// over /v1 too: the bytes go to storage (a presigned PUT, or the app's own endpoint), never through
// the attaching request. On the embedded default and on a real S3 protocol server (s3rver).

const Created = z.object({ id: z.uuid(), put: z.object({ url: z.string(), headers: z.record(z.string(), z.string()) }) });
const ErrorBody = z.strictObject({ error: z.string() });
const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

const whitePng = async (width: number, height: number) =>
  new Uint8Array(await sharp({ create: { width, height, channels: 3, background: "white" } }).png().toBuffer());

describe.each(["embedded", "s3"] as const)("attaching direct uploads to chattel files, scanbacks and the logo (%s storage)", (storage) => {
  let testDb: TestDb;
  let s3: RunningS3 | undefined;
  let world: Awaited<ReturnType<typeof loadManagerWorld>>;

  beforeAll(async () => {
    if (storage === "s3") {
      s3 = await startS3rver();
      setEnvForTests({ ...s3.env, VAULT_WEBHOOK_URL: undefined });
    } else {
      setEnvForTests({ S3_BUCKET: "" });
    }
    testDb = await createTestDb();
    world = await loadManagerWorld(testDb.db);
  }, 120_000);
  afterAll(async () => {
    setEnvForTests({ S3_BUCKET: "" });
    await testDb.cleanup();
    await s3?.stop();
  });

  /** POST /v1/uploads, then the PUT exactly as answered (to s3rver over HTTP, or the app's endpoint). */
  async function uploaded(email: string, bytes: Uint8Array, name: string, contentType: string): Promise<string> {
    const res = await as(email, "/v1/uploads", { method: "POST", json: { name, size: bytes.byteLength, contentType, sha256: sha256(bytes) } });
    expect(res.status, res.text).toBe(201);
    const { id, put } = Created.parse(res.body);
    const init = { method: "PUT", headers: put.headers, body: bytes as Uint8Array<ArrayBuffer> };
    const sent = storage === "s3" ? await fetch(put.url, init) : await fetchApi(new Request(`http://core-api.test${new URL(put.url).pathname}`, init));
    expect(sent.status).toBeLessThan(300);
    return id;
  }

  it("a chattel document's file by uploadId is stored with its name, type and hash; a malformed id, or another user's upload, is refused", async () => {
    const created = await as("manager@demo.local", "/v1/documents", { method: "POST", json: { type: "bill_of_sale", title: "Direct", locationId: world.austin.id } });
    expect(created.status, created.text).toBe(201);
    const documentId = (created.body as { id: string }).id;
    const png = await whitePng(30, 20);
    const uploadId = await uploaded("manager@demo.local", png, "photo.png", "image/png");

    const stranger = await as("company@demo.local", `/v1/documents/${documentId}/files`, { method: "POST", json: { uploadId } });
    expect(stranger.status).toBe(404);

    const res = await as("manager@demo.local", `/v1/documents/${documentId}/files`, { method: "POST", json: { uploadId, name: "Title photo.png" } });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ fileName: "Title photo.png", contentType: "image/png", sizeBytes: png.byteLength, sha256: sha256(png) });

    const bad = await as("manager@demo.local", `/v1/documents/${documentId}/files`, { method: "POST", json: { uploadId: "not-an-id" } });
    expect(bad.status).toBe(400);
    ErrorBody.parse(bad.body);
  });

  it("the logo by uploadId; a PDF upload is refused by name of the types the logo takes", async () => {
    const png = await whitePng(40, 20);
    const uploadId = await uploaded("owner@demo.local", png, "logo.png", "image/png");
    const res = await as("owner@demo.local", "/v1/workspace/settings/logo", { method: "PUT", json: { uploadId } });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ contentType: "image/png", sizeBytes: png.byteLength, width: 40, height: 20 });

    const pdf = await renderAgreementPdf({ title: "Not a logo", parties: ["A"], pages: 1 });
    const pdfId = await uploaded("owner@demo.local", pdf, "logo.pdf", "application/pdf");
    const refused = await as("owner@demo.local", "/v1/workspace/settings/logo", { method: "PUT", json: { uploadId: pdfId } });
    expect(refused.status).toBe(400);
    expect(ErrorBody.parse(refused.body).error).toBe(`Upload ${pdfId} is application/pdf; here only image/png, image/jpeg is accepted.`);
  });

  it("an image upload declared as PNG whose bytes are a PDF is refused when it is checked", async () => {
    const pdf = await renderAgreementPdf({ title: "Disguised", parties: ["A"], pages: 1 });
    const uploadId = await uploaded("owner@demo.local", pdf, "logo.png", "image/png");
    const res = await as("owner@demo.local", "/v1/workspace/settings/logo", { method: "PUT", json: { uploadId } });
    expect(res.status).toBe(400);
    expect(ErrorBody.parse(res.body).error).toBe("The uploaded file is application/pdf; image/png was declared.");
  });

  it("a 3 MB document downloads as a stream of slices (never one buffer), the same bytes", async () => {
    const { PDFDocument } = await import("pdf-lib");
    const doc = await PDFDocument.load(await renderAgreementPdf({ title: "Streamed", parties: ["A"], pages: 1 }));
    doc.context.register(doc.context.stream(new Uint8Array(3 * 1024 * 1024).map((_, i) => (i * 7919) % 251)));
    const pdf = await doc.save({ useObjectStreams: false });
    const created = await as("manager@demo.local", `${BASE}/signings`, { json: { locationId: world.austin.id, title: "Streamed download" } });
    expect(created.status, created.text).toBe(201);
    const id = (created.body as { id: string }).id;
    const attached = await as("manager@demo.local", `${BASE}/signings/${id}/documents`, { json: { uploadId: await uploaded("manager@demo.local", pdf, "Streamed.pdf", "application/pdf") } });
    expect(attached.status, attached.text).toBe(201);
    const docId = (attached.body as { id: string }).id;
    const res = await fetchApi(new Request(`http://core-api.test${BASE}/signings/${id}/documents/${docId}/file`, { headers: { authorization: `Bearer ${await tokenFor("manager@demo.local")}` } }));
    expect(res.status).toBe(200);
    expect(res.headers.get("content-length")).toBe(String(pdf.byteLength));
    const reader = res.body!.getReader();
    const chunks: Uint8Array[] = [];
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
    }
    // From the database in 1 MiB slices, from the bucket as its body arrives: several pieces either way.
    expect(chunks.length).toBeGreaterThan(1);
    expect(Math.max(...chunks.map((c) => c.byteLength))).toBeLessThanOrEqual(1024 * 1024);
    expect(sha256(Buffer.concat(chunks))).toBe(sha256(pdf));
  });

  it("scanbacks by uploadIds: every upload's pages are read, in order", async () => {
    const pdf = (title: string, pages = 1) => renderAgreementPdf({ title, parties: ["Borrower"], pages }).then((b) => Buffer.from(b).toString("base64"));
    const created = await as("manager@demo.local", `${BASE}/signings`, {
      json: {
        locationId: world.austin.id,
        title: "Direct scans",
        signers: [{ name: "Bo Rower", email: "direct-scans@demo.local" }],
        documents: [
          { name: "Disclosure.pdf", contentBase64: await pdf("Disclosure") },
          { name: "Note.pdf", contentBase64: await pdf("Note", 2), executionMode: "wet_sign" },
        ],
      },
    });
    expect(created.status, created.text).toBe(201);
    const id = (created.body as { id: string }).id;
    expect((await as("manager@demo.local", `${BASE}/signings/${id}/send`, { method: "POST" })).status).toBe(200);

    const first = await uploaded("manager@demo.local", await whitePng(850, 1100), "blank-1.png", "image/png");
    const second = await uploaded("manager@demo.local", await whitePng(850, 1100), "blank-2.png", "image/png");
    const res = await as("manager@demo.local", `${BASE}/signings/${id}/scanbacks`, { json: { uploadIds: [first, second] } });
    expect(res.status, res.text).toBe(201);
    const body = res.body as { pageCount: number; report: { pages: { sourceName: string; status: string }[] } };
    expect(body.pageCount).toBe(2);
    expect(body.report.pages.map((p) => [p.sourceName, p.status])).toEqual([
      ["blank-1.png", "unreadable"],
      ["blank-2.png", "unreadable"],
    ]);

    const empty = await as("manager@demo.local", `${BASE}/signings/${id}/scanbacks`, { json: { uploadIds: [] } });
    expect(empty.status).toBe(400);
    ErrorBody.parse(empty.body);
  });
});
