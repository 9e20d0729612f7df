import { createHash } from "node:crypto";
import { eq } from "drizzle-orm";
import { PDFDocument } from "pdf-lib";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { auditLog, organizations, signerAttachments, signingPackages } from "@/db/schema";
import { setEnvForTests } from "@/lib/env";
import { callApi, fetchApi, tokenFor } from "../helpers/api";
import { createTestDb, type TestDb } from "../helpers/db";
import { loadDemoWorld, type DemoWorld } from "../helpers/fixtures";
import { createUser } from "../helpers/fixtures";
import { download, uploadFile } from "../helpers/upload";

// /v1 for attachments asked of signers: requests at creation and later, the signer sends files
// (multipart, raw body, direct upload), the manager lists, downloads, accepts and rejects.

const Created = z.object({ id: z.uuid(), put: z.object({ url: z.string(), headers: z.record(z.string(), z.string()) }) });
const ErrorBody = z.object({ error: z.string().min(1) });
const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

let testDb: TestDb;
let world: DemoWorld;
let counter = 0;
let manager: string;

beforeAll(async () => {
  setEnvForTests({ S3_BUCKET: "" });
  testDb = await createTestDb();
  world = await loadDemoWorld(testDb.db);
  manager = await tokenFor("manager@demo.local");
});
afterAll(async () => {
  await testDb.cleanup();
});

const photo = () => sharp({ create: { width: 30, height: 20, channels: 3, background: { r: 10, g: 120, b: 200 } } }).jpeg().withMetadata({ orientation: 6 }).toBuffer();

/** A package created and sent through /v1 whose one signer (an account) is asked for a license at creation. */
async function sentPackage() {
  counter += 1;
  const email = `api-attach-${counter}@example.test`;
  await createUser(testDb.db, email);
  const pdf = await (await PDFDocument.create().then((d) => (d.addPage(), d))).save();
  const created = await callApi("/v1/signing/manager/signings", {
    token: manager,
    json: {
      locationId: world.austin.id,
      title: `API attachments ${counter}`,
      signers: [{ name: "Ana Borrower", email, attachments: [{ name: "Driver's license, front and back", description: "Both sides" }, { name: "Pay stub", required: false }] }],
      documents: [{ name: "Note.pdf", contentBase64: Buffer.from(pdf).toString("base64") }],
    },
  });
  expect(created.status, created.text).toBe(201);
  const id = (created.body as { id: string }).id;
  const sent = await callApi(`/v1/signing/manager/signings/${id}/send`, { token: manager, method: "POST" });
  expect(sent.status, sent.text).toBe(200);
  return { id, email, signer: await tokenFor(email) };
}

type RequestView = { id: string; signerId: string; name: string; required: boolean; status: string; files: { id: string; status: string; sha256: string; rejectReason: string | null }[] };

describe("attachments over /v1", () => {
  it("asks at creation, takes a photo as multipart, lets the manager download and reject it, then accept another; the package waits for it", async () => {
    const { id, signer } = await sentPackage();
    const listed = await callApi(`/v1/signing/manager/signings/${id}/attachments`, { token: manager });
    expect(listed.status, listed.text).toBe(200);
    const [license, payStub] = (listed.body as { data: RequestView[] }).data;
    expect(license).toMatchObject({ name: "Driver's license, front and back", required: true, status: "missing", files: [] });
    expect(payStub).toMatchObject({ name: "Pay stub", required: false });

    // The signer sees theirs and sends a photo.
    const mine = await callApi(`/v1/signing/signer/signings/${id}/attachments`, { token: signer });
    expect((mine.body as { data: RequestView[] }).data.map((r) => r.name)).toEqual(["Driver's license, front and back", "Pay stub"]);
    const sent = await uploadFile(`/v1/signing/signer/signings/${id}/attachments/${license!.id}/files`, { token: signer, bytes: await photo(), fileName: "IMG_1.HEIC.jpg", contentType: "image/jpeg" });
    expect(sent.status, sent.text).toBe(201);
    const file = sent.body as { id: string; sha256: string; status: string; sourceType: string };
    expect(file).toMatchObject({ status: "pending", sourceType: "image/jpeg" });

    // The manager downloads it: a PDF with that hash.
    const got = await download(`/v1/signing/manager/signings/${id}/attachments/${file.id}/file`, manager);
    expect(got.status).toBe(200);
    expect(got.headers.get("content-type")).toContain("application/pdf");
    expect(sha256(got.bytes)).toBe(file.sha256);
    expect((await download(`/v1/signing/signer/signings/${id}/attachment-files/${file.id}`, signer)).status).toBe(200);
    // The signer cannot review; a reject without a reason is a 400.
    expect((await callApi(`/v1/signing/manager/signings/${id}/attachments/${file.id}/review`, { token: signer, json: { decision: "accept" } })).status).toBe(403);
    const noReason = await callApi(`/v1/signing/manager/signings/${id}/attachments/${file.id}/review`, { token: manager, json: { decision: "reject" } });
    expect(noReason.status).toBe(400);
    ErrorBody.parse(noReason.body);
    const rejected = await callApi(`/v1/signing/manager/signings/${id}/attachments/${file.id}/review`, { token: manager, json: { decision: "reject", reason: "Too blurry to read" } });
    expect(rejected.status, rejected.text).toBe(200);
    expect(rejected.body).toMatchObject({ attachment: { status: "rejected", rejectReason: "Too blurry to read" }, packageStatus: "sent" });
    const again = await callApi(`/v1/signing/manager/signings/${id}/attachments/${file.id}/review`, { token: manager, json: { decision: "accept" } });
    expect(again.status).toBe(409);

    // A raw PDF body, then sign: still waiting for the license; accepting completes.
    const pdf = await (await PDFDocument.create().then((d) => (d.addPage(), d))).save();
    const raw = await fetchApi(
      new Request(`http://core-api.test/v1/signing/signer/signings/${id}/attachments/${license!.id}/files?name=license.pdf`, {
        method: "POST",
        headers: { authorization: `Bearer ${signer}`, "content-type": "application/pdf" },
        body: pdf as Uint8Array<ArrayBuffer>,
      }),
    );
    expect(raw.status).toBe(201);
    const second = (await raw.json()) as { id: string; fileName: string };
    expect(second.fileName).toBe("license.pdf");
    const detail = await callApi(`/v1/signing/signer/signings/${id}`, { token: signer });
    const documentId = (detail.body as { documents: { id: string }[] }).documents[0]!.id;
    const signed = await callApi(`/v1/signing/signer/signings/${id}/documents/${documentId}/esignatures`, {
      token: signer,
      json: { kind: "typed", text: "Ana Borrower", font: "great-vibes", consent: true },
    });
    expect(signed.status, signed.text).toBe(201);
    const status = async () => (await testDb.db.select({ s: signingPackages.status }).from(signingPackages).where(eq(signingPackages.id, id)))[0]!.s;
    expect(await status()).toBe("in_progress");
    const accepted = await callApi(`/v1/signing/manager/signings/${id}/attachments/${second.id}/review`, { token: manager, json: { decision: "accept" } });
    expect(accepted.status, accepted.text).toBe(200);
    expect(accepted.body).toMatchObject({ packageStatus: "completed" });
  });

  it("withdraws a request nothing was sent for, makes one with files optional, and the package then completes without it", async () => {
    const { id, signer } = await sentPackage();
    const [other] = await testDb.db.select().from(organizations).where(eq(organizations.slug, "other"));
    await createUser(testDb.db, "attach-stranger@other.local", [{ role: "org_admin", organizationId: other!.id }]);
    const stranger = await tokenFor("attach-stranger@other.local");
    const requests = async (token = manager) => ((await callApi(`/v1/signing/manager/signings/${id}/attachments`, { token })).body as { data: RequestView[] }).data;
    const [license, payStub] = await requests();
    const requestPath = (requestId: string) => `/v1/signing/manager/signings/${id}/attachment-requests/${requestId}`;

    // The optional pay stub, with nothing sent, is withdrawn: the signer no longer sees it.
    expect((await callApi(requestPath(payStub!.id), { method: "DELETE", token: signer })).status).toBe(403);
    expect((await callApi(requestPath(payStub!.id), { method: "DELETE", token: stranger })).status).toBe(404);
    expect((await callApi(requestPath("not-a-request"), { method: "DELETE", token: manager })).status).toBe(404);
    const withdrawn = await callApi(requestPath(payStub!.id), { method: "DELETE", token: manager });
    expect(withdrawn).toMatchObject({ status: 200, body: { packageStatus: "sent" } });
    const mine = (await callApi(`/v1/signing/signer/signings/${id}/attachments`, { token: signer })).body as { data: RequestView[] };
    expect(mine.data.map((r) => r.name)).toEqual(["Driver's license, front and back"]);
    expect((await callApi(requestPath(payStub!.id), { method: "DELETE", token: manager })).status).toBe(404);

    // The license has a rejected file: it cannot be withdrawn (the file stays as evidence), only made optional.
    const sent = await uploadFile(`/v1/signing/signer/signings/${id}/attachments/${license!.id}/files`, { token: signer, bytes: await photo(), fileName: "license.jpg", contentType: "image/jpeg" });
    expect(sent.status, sent.text).toBe(201);
    const fileId = (sent.body as { id: string }).id;
    expect((await callApi(`/v1/signing/manager/signings/${id}/attachments/${fileId}/review`, { token: manager, json: { decision: "reject", reason: "Expired license" } })).status).toBe(200);
    const refused = await callApi(requestPath(license!.id), { method: "DELETE", token: manager });
    expect(refused).toMatchObject({ status: 409, body: { error: expect.stringMatching(/already sent a file.*make the request optional/) } });

    // Signed, the package still waits for the required license.
    const detail = await callApi(`/v1/signing/signer/signings/${id}`, { token: signer });
    const documentId = (detail.body as { documents: { id: string }[] }).documents[0]!.id;
    const signed = await callApi(`/v1/signing/signer/signings/${id}/documents/${documentId}/esignatures`, { token: signer, json: { kind: "typed", text: "Ana Borrower", font: "caveat", consent: true } });
    expect(signed.status, signed.text).toBe(201);
    const status = async () => (await testDb.db.select({ s: signingPackages.status }).from(signingPackages).where(eq(signingPackages.id, id)))[0]!.s;
    expect(await status()).toBe("in_progress");

    // Bad bodies and strangers change nothing; required: false completes the package.
    for (const json of [{ required: "no" }, {}, { required: false, name: "x" }]) {
      const bad = await callApi(requestPath(license!.id), { method: "PATCH", token: manager, json });
      expect(bad.status, JSON.stringify(json)).toBe(400);
      ErrorBody.parse(bad.body);
    }
    expect((await callApi(requestPath(license!.id), { method: "PATCH", token: manager })).status).toBe(400);
    expect((await callApi(requestPath(license!.id), { method: "PATCH", token: stranger, json: { required: false } })).status).toBe(404);
    expect((await requests()).find((r) => r.id === license!.id)).toMatchObject({ required: true });
    expect(await status()).toBe("in_progress");
    const changed = await callApi(requestPath(license!.id), { method: "PATCH", token: manager, json: { required: false } });
    expect(changed).toMatchObject({ status: 200, body: { request: { id: license!.id, required: false, files: [{ id: fileId, status: "rejected" }] }, packageStatus: "completed" } });
    // Closed: nothing more changes.
    expect((await callApi(requestPath(license!.id), { method: "PATCH", token: manager, json: { required: true } })).status).toBe(409);

    const trail = await testDb.db.select().from(auditLog).where(eq(auditLog.packageId, id));
    expect(trail.find((e) => e.action === "attachment.request_removed" && e.entityId === payStub!.id)!.before).toMatchObject({ name: "Pay stub", required: false });
    expect(trail.find((e) => e.action === "attachment.request_changed" && e.entityId === license!.id)).toMatchObject({ before: { required: true }, after: { required: false } });
  });

  it("takes a direct upload by id, and refuses a file that is not a photo or a PDF, changing nothing", async () => {
    const { id, signer } = await sentPackage();
    const [license] = ((await callApi(`/v1/signing/signer/signings/${id}/attachments`, { token: signer })).body as { data: RequestView[] }).data;
    const path = `/v1/signing/signer/signings/${id}/attachments/${license!.id}/files`;

    const bytes = await photo();
    const created = await callApi("/v1/uploads", { token: signer, json: { name: "license.jpg", size: bytes.byteLength, contentType: "image/jpeg", sha256: sha256(bytes) } });
    expect(created.status, created.text).toBe(201);
    const { id: uploadId, put } = Created.parse(created.body);
    const putRes = await fetchApi(new Request(`http://core-api.test${new URL(put.url).pathname}`, { method: "PUT", headers: put.headers, body: bytes as Uint8Array<ArrayBuffer> }));
    expect(putRes.status).toBeLessThan(300);

    const notAFile = await uploadFile(path, { token: signer, bytes: new TextEncoder().encode("just some text"), fileName: "license.jpg", contentType: "image/jpeg" });
    expect(notAFile.status).toBe(400);
    expect(ErrorBody.parse(notAFile.body).error).toMatch(/not a photo/);
    expect(await testDb.db.select().from(signerAttachments).where(eq(signerAttachments.packageId, id))).toEqual([]);

    const byId = await callApi(path, { token: signer, json: { uploadId, name: "License" } });
    expect(byId.status, byId.text).toBe(201);
    expect(byId.body).toMatchObject({ fileName: "License.pdf", sourceType: "image/jpeg", status: "pending" });

    // Someone else's package or request: 404.
    const other = await sentPackage();
    expect((await uploadFile(path, { token: other.signer, bytes, fileName: "x.jpg" })).status).toBe(404);
  });

  it("refuses a direct upload over 20 MiB by id with a 413 naming the limit, before reading it, changing nothing", async () => {
    const { id, signer } = await sentPackage();
    const [license] = ((await callApi(`/v1/signing/signer/signings/${id}/attachments`, { token: signer })).body as { data: RequestView[] }).data;
    const size = 21 * 1024 * 1024;
    const created = await callApi("/v1/uploads", { token: signer, json: { name: "license-scan.pdf", size, contentType: "application/pdf", sha256: "a".repeat(64) } });
    expect(created.status, created.text).toBe(201);
    const { id: uploadId } = Created.parse(created.body);

    const byId = await callApi(`/v1/signing/signer/signings/${id}/attachments/${license!.id}/files`, { token: signer, json: { uploadId } });
    expect(byId.status, byId.text).toBe(413);
    expect(ErrorBody.parse(byId.body).error).toBe(`The file is ${size} bytes; an attachment may be at most 20 MiB.`);
    expect(await testDb.db.select().from(signerAttachments).where(eq(signerAttachments.packageId, id))).toEqual([]);
  });

  it("asks for more on a sent package; every operation answers curl with no body with a clear 4xx", async () => {
    const { id } = await sentPackage();
    const [license] = ((await callApi(`/v1/signing/manager/signings/${id}/attachments`, { token: manager })).body as { data: RequestView[] }).data;
    const more = await callApi(`/v1/signing/manager/signings/${id}/signers/${license!.signerId}/attachment-requests`, {
      token: manager,
      json: { attachments: [{ name: "Proof of insurance", description: "Declarations page" }] },
    });
    expect(more.status, more.text).toBe(201);
    expect((more.body as { data: RequestView[] }).data.map((r) => r.name)).toEqual(["Driver's license, front and back", "Pay stub", "Proof of insurance"]);

    for (const path of [
      `/v1/signing/manager/signings/${id}/signers/${license!.signerId}/attachment-requests`,
      `/v1/signing/manager/signings/${id}/attachments/${license!.id}/review`,
      `/v1/signing/signer/signings/${id}/attachments/${license!.id}/files`,
    ]) {
      const res = await callApi(path, { token: manager, method: "POST" });
      expect(res.status, path).toBeGreaterThanOrEqual(400);
      expect(res.status, path).toBeLessThan(500);
      expect(ErrorBody.parse(res.body).error.length).toBeGreaterThan(5);
    }
    const empty = await callApi(`/v1/signing/manager/signings/${id}/signers/${license!.signerId}/attachment-requests`, { token: manager, json: { attachments: [] } });
    expect(empty.status).toBe(400);
  });
});
