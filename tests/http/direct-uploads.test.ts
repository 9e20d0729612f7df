import { createHash, randomBytes } from "node:crypto";
import { ListObjectsV2Command, S3Client } from "@aws-sdk/client-s3";
import { eq } from "drizzle-orm";
import { PDFDocument } from "pdf-lib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { fileObjects, organizations, packageDocuments, uploads } from "@/db/schema";
import { setEnvForTests } from "@/lib/env";
import { createJobRegistry } from "@/lib/jobs/create-job-registry";
import { isScheduledJob } from "@/lib/jobs/define-job";
import { enqueueScheduledJob } from "@/lib/jobs/enqueue-scheduled-job";
import { runDueJobs } from "@/lib/job-runner/run-due-jobs";
import { sweepExpiredUploads } from "@/lib/uploads/sweep-expired-uploads";
import { sweepExpiredUploadsJob } from "@/lib/uploads/sweep-expired-uploads-job";
import { startS3rver, type RunningS3 } from "../fakes/s3/start-s3rver";
import { fetchApi, tokenFor } from "../helpers/api";
import { createTestDb, type TestDb } from "../helpers/db";
import { as, BASE, createDraft, DocumentJson, loadManagerWorld } from "../helpers/manager";
import { download } from "../helpers/upload";

// Direct uploads (issue 30, item 2): POST /v1/uploads → PUT the bytes where it says → attach by id.
// The same journey on the embedded default (the app's own PUT endpoint) and on a real S3 protocol
// server (s3rver: a presigned PUT of a staging object), every /v1 call through fetchApi.

const Created = z.object({
  id: z.uuid(),
  status: z.literal("pending"),
  put: z.object({ method: z.literal("PUT"), url: z.string(), headers: z.record(z.string(), z.string()), expiresAt: z.string() }),
});
const ErrorBody = z.strictObject({ error: z.string() });

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

/** A real PDF of `pages` pages, padded with an unreferenced raw stream to about `padBytes`. */
async function makePdf(pages: number, padBytes = 0, marker = "x"): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.setTitle(`direct upload ${marker}`);
  for (let i = 0; i < pages; i++) doc.addPage([200, 200]);
  if (padBytes > 0) doc.context.register(doc.context.stream(randomBytes(padBytes)));
  return doc.save({ useObjectStreams: false });
}

/** A PDF whose trailer names an /Encrypt dictionary, as a password-protected file's does. */
async function encryptedPdf(): Promise<Uint8Array> {
  const text = Buffer.from(await makePdf(1, 0, "enc")).toString("latin1");
  const encrypted = text.replace(/trailer\s*<</, "trailer\n<<\n/Encrypt << /Filter /Standard /V 1 /R 2 /O (0123456789abcdef0123456789abcdef) /U (0123456789abcdef0123456789abcdef) /P -4 >>");
  expect(encrypted).not.toBe(text);
  return new Uint8Array(Buffer.from(encrypted, "latin1"));
}

describe.each(["embedded", "s3"] as const)("direct uploads (%s storage)", (storage) => {
  let testDb: TestDb;
  let s3: RunningS3 | undefined;
  let client: S3Client | undefined;
  let austinId: number;
  let tulsaId: number;

  beforeAll(async () => {
    if (storage === "s3") {
      s3 = await startS3rver();
      setEnvForTests({ ...s3.env, VAULT_WEBHOOK_URL: undefined });
      client = new S3Client({ region: "us-east-1", endpoint: s3.env.S3_ENDPOINT, forcePathStyle: true, credentials: { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" } });
    } else {
      setEnvForTests({ S3_BUCKET: "" });
    }
    testDb = await createTestDb();
    const world = await loadManagerWorld(testDb.db);
    austinId = world.austin.id;
    tulsaId = world.tulsa.id;
  });
  afterAll(async () => {
    setEnvForTests({ S3_BUCKET: "" });
    await testDb.cleanup();
    await s3?.stop();
  });

  const bucketKeys = async () => ((await client!.send(new ListObjectsV2Command({ Bucket: "documents" }))).Contents ?? []).map((o) => o.Key!);

  async function startUpload(email: string, bytes: Uint8Array, declared: Partial<{ name: string; size: number; contentType: string; sha256: string }> = {}) {
    const body = { name: "Loan package.pdf", size: bytes.byteLength, contentType: "application/pdf", sha256: sha256(bytes), ...declared };
    const res = await as(email, "/v1/uploads", { method: "POST", json: body });
    return res;
  }

  /** Sends the bytes exactly as the answer says: to s3rver over HTTP, or to this service's own endpoint through fetchApi. */
  async function put(target: z.infer<typeof Created>["put"], bytes: Uint8Array, headers: Record<string, string> = {}) {
    const init = { method: "PUT", headers: { ...target.headers, ...headers }, body: bytes as Uint8Array<ArrayBuffer> };
    if (storage === "s3") {
      expect(target.url.startsWith(s3!.env.S3_ENDPOINT!)).toBe(true);
      // S3's own presigned PUT of a staging object, for 15 minutes, with size, type and SHA-256 signed in.
      const url = new URL(target.url);
      expect(url.pathname).toMatch(/^\/documents\/uploads\/[0-9a-f-]{36}$/);
      expect(url.searchParams.get("X-Amz-Expires")).toBe("900");
      expect(url.searchParams.get("X-Amz-SignedHeaders")).toBe("content-length;content-type;host;x-amz-checksum-sha256");
      expect(Object.keys(target.headers).sort()).toEqual(["Content-Type", "x-amz-checksum-sha256"]);
      return fetch(target.url, init);
    }
    const url = new URL(target.url);
    expect(url.pathname).toMatch(/^\/v1\/uploads\/[0-9a-f-]+\/content$/);
    expect(target.url).not.toContain(target.headers["Upload-Token"]!);
    return fetchApi(new Request(`http://core-api.test${url.pathname}`, init));
  }

  async function uploaded(email: string, bytes: Uint8Array) {
    const res = await startUpload(email, bytes);
    expect(res.status, res.text).toBe(201);
    const created = Created.parse(res.body);
    const sent = await put(created.put, bytes);
    expect(sent.status).toBeLessThan(300);
    return created;
  }

  const attach = (email: string, packageId: string, uploadId: string, name?: string) =>
    as(email, `${BASE}/signings/${packageId}/documents`, { method: "POST", json: { uploadId, ...(name ? { name } : {}) } });
  const documentsOf = (packageId: string) => testDb.db.select().from(packageDocuments).where(eq(packageDocuments.packageId, packageId));

  it("create → PUT a 5 MB PDF (past a 4.5 MB body limit) → attach to a package → the download matches", async () => {
    const pdf = await makePdf(3, 5 * 1024 * 1024, "big");
    expect(pdf.byteLength).toBeGreaterThan(4.5 * 1024 * 1024);
    const draft = await createDraft("manager@demo.local", { locationId: austinId });
    const created = await uploaded("manager@demo.local", pdf);
    if (storage === "s3") {
      // The bytes went to the bucket (staging), not through a /v1 body.
      expect(await bucketKeys()).toContain(`uploads/${created.id}`);
    }
    const res = await attach("manager@demo.local", draft, created.id, "Exhibits.pdf");
    expect(res.status, res.text).toBe(201);
    expect(DocumentJson.parse(res.body)).toMatchObject({ name: "Exhibits.pdf", sizeBytes: pdf.byteLength, sha256: sha256(pdf), pageCount: 3 });
    const [row] = await documentsOf(draft);
    expect(row!.storageKey).toBe(`sha256/${sha256(pdf)}`);
    if (storage === "s3") {
      const keys = await bucketKeys();
      expect(keys).toContain(row!.storageKey);
      expect(keys).not.toContain(`uploads/${created.id}`);
      expect(await testDb.db.select({ key: fileObjects.key }).from(fileObjects)).toEqual([]);
    }
    const file = await download(`${BASE}/signings/${draft}/documents/${row!.id}/file`, await tokenFor("manager@demo.local"));
    expect(file.status).toBe(200);
    expect(sha256(file.bytes)).toBe(sha256(pdf));

    // The same upload attached again (another package) refers to the same object: stored once.
    const second = await createDraft("manager@demo.local", { locationId: austinId, documents: [{ name: "Again.pdf", uploadId: created.id }] });
    const [copy] = await documentsOf(second);
    expect(copy!.storageKey).toBe(row!.storageKey);
  });

  it("verifies on /complete: status verified with the page count", async () => {
    const pdf = await makePdf(2, 0, "complete");
    const created = await uploaded("manager@demo.local", pdf);
    const res = await as("manager@demo.local", `/v1/uploads/${created.id}/complete`, { method: "POST" });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ id: created.id, status: "verified", pageCount: 2, sizeBytes: pdf.byteLength });
  });

  it("refuses bytes of another size, hash or type with a 4xx that says so, and attaches nothing", async () => {
    const draft = await createDraft("manager@demo.local", { locationId: austinId });
    const pdf = await makePdf(1, 0, "declared");
    const other = await makePdf(1, 0, "other");

    // Another file of another size.
    const sized = Created.parse((await startUpload("manager@demo.local", pdf)).body);
    const longer = new Uint8Array([...pdf, 0x0a, 0x0a]);
    const sizedPut = await put(sized.put, longer);
    // A file cut short.
    const cut = Created.parse((await startUpload("manager@demo.local", pdf)).body);
    const shorter = pdf.slice(0, pdf.byteLength - 2);
    const cutPut = await put(cut.put, shorter);
    // Another file, same size, other hash.
    const hashed = Created.parse((await startUpload("manager@demo.local", pdf)).body);
    const sameSize = new Uint8Array(pdf);
    sameSize[sameSize.length - 2] = sameSize[sameSize.length - 2] === 0x20 ? 0x21 : 0x20;
    const hashedPut = await put(hashed.put, sameSize);
    // The right bytes sent as another type.
    const typed = Created.parse((await startUpload("manager@demo.local", other)).body);
    const typedPut = await put(typed.put, other, { "Content-Type": "text/plain" });

    if (storage === "embedded") {
      // The app's endpoint refuses at the PUT.
      expect([sizedPut.status, ErrorBody.parse(await sizedPut.json()).error]).toEqual([413, `The body exceeds the ${pdf.byteLength} bytes declared for this upload.`]);
      expect([cutPut.status, ErrorBody.parse(await cutPut.json()).error]).toEqual([400, `The body has ${shorter.byteLength} bytes; ${pdf.byteLength} were declared for this upload.`]);
      expect([hashedPut.status, ErrorBody.parse(await hashedPut.json()).error]).toEqual([400, `The body's SHA-256 is ${sha256(sameSize)}; ${sha256(pdf)} was declared for this upload.`]);
      expect([typedPut.status, ErrorBody.parse(await typedPut.json()).error]).toEqual([
        400,
        "Content-Type: the upload was declared as application/pdf, but the body was sent as text/plain.",
      ]);
      for (const created of [sized, cut, hashed, typed]) {
        const res = await attach("manager@demo.local", draft, created.id);
        expect([res.status, ErrorBody.parse(res.body).error]).toEqual([409, `Nothing has arrived for upload ${created.id} yet: PUT the file to the upload URL first.`]);
      }
    } else {
      // s3rver stores what it is sent (it checks no signed checksum); the server's own check refuses it.
      const cases: [typeof sized, string][] = [
        [sized, `The uploaded file has ${longer.byteLength} bytes; ${pdf.byteLength} were declared.`],
        [cut, `The uploaded file has ${shorter.byteLength} bytes; ${pdf.byteLength} were declared.`],
        [hashed, `The uploaded file's SHA-256 is ${sha256(sameSize)}; ${sha256(pdf)} was declared.`],
        [typed, "The uploaded file was sent as text/plain; application/pdf was declared."],
      ];
      for (const [created, message] of cases) {
        const res = await attach("manager@demo.local", draft, created.id);
        expect([res.status, ErrorBody.parse(res.body).error]).toEqual([400, message]);
        expect(await bucketKeys()).not.toContain(`uploads/${created.id}`);
      }
      expect(await bucketKeys()).not.toContain(`sha256/${sha256(sameSize)}`);
    }
    expect(await documentsOf(draft)).toEqual([]);
  });

  it("refuses an oversize file when the upload is asked for, naming the limit and the size", async () => {
    const res = await as("manager@demo.local", "/v1/uploads", {
      method: "POST",
      json: { name: "Huge.pdf", size: 150 * 1024 * 1024, contentType: "application/pdf", sha256: "a".repeat(64) },
    });
    expect([res.status, res.body]).toEqual([413, { error: "The PDF is 157286400 bytes; the limit for an uploaded PDF is 100 MiB (104857600 bytes)." }]);
    const typed = await as("manager@demo.local", "/v1/uploads", {
      method: "POST",
      json: { name: "a.docx", size: 10, contentType: "application/msword", sha256: "a".repeat(64) },
    });
    expect([typed.status, typed.body]).toEqual([400, { error: "contentType: application/msword is not accepted; upload application/pdf or image/png or image/jpeg." }]);
    expect(await testDb.db.select().from(uploads).where(eq(uploads.name, "Huge.pdf"))).toEqual([]);
  });

  it("refuses an encrypted PDF and one over 500 pages, and attaches nothing", async () => {
    const draft = await createDraft("manager@demo.local", { locationId: austinId });
    const locked = await uploaded("manager@demo.local", await encryptedPdf());
    const res = await attach("manager@demo.local", draft, locked.id);
    expect([res.status, res.body]).toEqual([400, { error: "The PDF is encrypted (password-protected); upload a copy without a password or restrictions." }]);
    const long = await uploaded("manager@demo.local", await makePdf(501, 0, "long"));
    const longRes = await as("manager@demo.local", `/v1/uploads/${long.id}/complete`, { method: "POST" });
    expect([longRes.status, longRes.body]).toEqual([400, { error: "The PDF has 501 pages; a document may have at most 500." }]);
    expect(await documentsOf(draft)).toEqual([]);
  });

  it("refuses an expired upload, and the sweep deletes it with its unreferenced object", async () => {
    const draft = await createDraft("manager@demo.local", { locationId: austinId });
    const pdf = await makePdf(1, 0, "expired");
    const created = await uploaded("manager@demo.local", pdf);
    await testDb.db.update(uploads).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(uploads.id, created.id));
    const res = await attach("manager@demo.local", draft, created.id);
    expect(res.status).toBe(409);
    expect(ErrorBody.parse(res.body).error).toMatch(new RegExp(`^Upload ${created.id} expired at .+; create a new upload\\.$`));
    expect(await documentsOf(draft)).toEqual([]);

    expect(await sweepExpiredUploads(testDb.db, { limit: 100 })).toBeGreaterThanOrEqual(1);
    expect(await testDb.db.select().from(uploads).where(eq(uploads.id, created.id))).toEqual([]);
    const key = `sha256/${sha256(pdf)}`;
    if (storage === "s3") expect((await bucketKeys()).filter((k) => k === key || k === `uploads/${created.id}`)).toEqual([]);
    else expect(await testDb.db.select().from(fileObjects).where(eq(fileObjects.key, key))).toEqual([]);
  });

  it("the hourly sweep-expired-uploads job deletes expired uploads through the job runner", async () => {
    const created = await uploaded("manager@demo.local", await makePdf(1, 0, "job"));
    await testDb.db.update(uploads).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(uploads.id, created.id));
    if (!isScheduledJob(sweepExpiredUploadsJob)) throw new Error("sweep-expired-uploads has no schedule");
    expect(sweepExpiredUploadsJob.schedule).toBe("17 * * * *");
    const { created: enqueued } = await enqueueScheduledJob(testDb.db, sweepExpiredUploadsJob, { now: new Date() });
    expect(enqueued).toBe(true);
    const registry = createJobRegistry([sweepExpiredUploadsJob]);
    expect(await runDueJobs(testDb.db, { workerId: "upload-sweep-test", registry })).toMatchObject({ succeeded: 1, failed: 0 });
    expect(await testDb.db.select().from(uploads).where(eq(uploads.id, created.id))).toEqual([]);
  });

  it("the sweep keeps an expired upload's object that a document refers to", async () => {
    const pdf = await makePdf(1, 0, "kept");
    const created = await uploaded("manager@demo.local", pdf);
    const draft = await createDraft("manager@demo.local", { locationId: austinId, documents: [{ name: "Kept.pdf", uploadId: created.id }] });
    await testDb.db.update(uploads).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(uploads.id, created.id));
    await sweepExpiredUploads(testDb.db, { limit: 100 });
    const [row] = await documentsOf(draft);
    const file = await download(`${BASE}/signings/${draft}/documents/${row!.id}/file`, await tokenFor("manager@demo.local"));
    expect([file.status, sha256(file.bytes)]).toEqual([200, sha256(pdf)]);
  });

  it("another tenant cannot use the upload id; nor can the PUT be replayed", async () => {
    const pdf = await makePdf(1, 0, "tenant");
    const created = await uploaded("manager@demo.local", pdf);
    const theirs = await createDraft("manager@other.local", { locationId: tulsaId });
    const res = await attach("manager@other.local", theirs, created.id);
    expect([res.status, res.body]).toEqual([404, { error: `Upload ${created.id} not found.` }]);
    const complete = await as("manager@other.local", `/v1/uploads/${created.id}/complete`, { method: "POST" });
    expect(complete.status).toBe(404);
    const viaCreate = await as("manager@other.local", `${BASE}/signings`, { method: "POST", json: { locationId: tulsaId, documents: [{ name: "x.pdf", uploadId: created.id }] } });
    expect(viaCreate.status).toBe(404);
    expect(await documentsOf(theirs)).toEqual([]);
    if (storage === "embedded") {
      const again = await put(created.put, pdf);
      expect([again.status, await again.json()]).toEqual([401, { error: "Invalid, used or expired upload token." }]);
      const forged = await put(created.put, pdf, { "Upload-Token": "forged" });
      expect(forged.status).toBe(401);
    }
  });

  it("400 for a JSON body that names no upload, or a package document with both an upload and inline bytes", async () => {
    const draft = await createDraft("manager@demo.local", { locationId: austinId });
    const res = await as("manager@demo.local", `${BASE}/signings/${draft}/documents`, { method: "POST", json: { file: "x" } });
    expect(res.status).toBe(400);
    expect(ErrorBody.parse(res.body).error).toMatch(/^Invalid request body\. .*uploadId/);
    const both = await as("manager@demo.local", `${BASE}/signings`, {
      method: "POST",
      json: { locationId: austinId, documents: [{ name: "x.pdf", contentBase64: "JVBERi0=", uploadId: "0190c5a4-0000-7000-8000-000000000000" }] },
    });
    expect(both.status).toBe(400);
    expect(ErrorBody.parse(both.body).error).toContain("give exactly one of contentBase64 and uploadId");
    expect(await documentsOf(draft)).toEqual([]);
  });

  it("a template document takes an uploadId too", async () => {
    const [organization] = await testDb.db.select({ id: organizations.id }).from(organizations).where(eq(organizations.slug, "demo"));
    const template = await as("owner@demo.local", `${BASE}/templates`, { method: "POST", json: { name: "Uploaded template", organizationId: organization!.id } });
    expect(template.status, template.text).toBe(201);
    const templateId = (template.body as { id: string }).id;
    const pdf = await makePdf(2, 0, "template");
    const created = await uploaded("owner@demo.local", pdf);
    const res = await as("owner@demo.local", `${BASE}/templates/${templateId}/documents?executionMode=wet_sign`, { method: "POST", json: { uploadId: created.id } });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ name: "Loan package.pdf", pageCount: 2, sha256: sha256(pdf), executionMode: "wet_sign" });
  });
});
