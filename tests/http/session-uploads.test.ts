import { createHash, randomBytes, randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { PDFDocument, PDFName } from "pdf-lib";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { packageSigners, signerAttachments, uploads } from "@/db/schema";
import { addSignerAttachment } from "@/lib/attachments/add-signer-attachment";
import { addAttachmentRequests } from "@/lib/attachments/create-attachment-requests";
import { agentSessionPrincipal } from "@/lib/auth/agent-session-principal";
import { localSubjectForEmail } from "@/lib/auth/local-tokens";
import { NO_ACCOUNT_USER_ID, resolvePrincipal, type Principal } from "@/lib/auth/principal";
import { SCAN_UPLOAD_TYPES, uploadScanback } from "@/lib/closings/scanback";
import { setEnvForTests } from "@/lib/env";
import { renderAgreementPdf } from "@/lib/pdf/pdf";
import { issueAgentLink } from "@/lib/settlement-agent/issue-agent-link";
import { createSigning } from "@/lib/signings/create-signing";
import { sendSigning } from "@/lib/signings/send-signing";
import { createUpload } from "@/lib/uploads/create-upload";
import { readUploadedFile, readUploadedFiles } from "@/lib/uploads/read-uploaded-file";
import { sweepExpiredUploads } from "@/lib/uploads/sweep-expired-uploads";
import { verifyUpload } from "@/lib/uploads/verify-upload";
import { expectAppError } from "../helpers/app-error";
import { fetchApi } from "../helpers/api";
import { createTestDb, type TestDb } from "../helpers/db";
import { loadDemoWorld, type DemoWorld } from "../helpers/fixtures";
import { createSignerPackage, ensureUser, managerOf, type FixturePackage } from "../helpers/signing-fixtures";

// Uploads owned by a session, not an account: a borrower's signer session (an emailed link, an
// embedded signing) and a settlement agent's session upload straight to storage like a manager does,
// through the app's own PUT endpoint on the embedded default, and attach by id only what they own.

let testDb: TestDb;
let world: DemoWorld;
let counter = 0;
const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");
const MiB = 1024 * 1024;

beforeAll(async () => {
  setEnvForTests({ S3_BUCKET: "" });
  testDb = await createTestDb();
  world = await loadDemoWorld(testDb.db);
}, 120_000);
afterAll(async () => {
  await testDb.cleanup();
});

/** The principal of a proven signer session of that signer, as `signerSessionPrincipal` makes it (no account). */
function signerSession(pkg: FixturePackage, index = 0): Principal {
  const signer = pkg.signers[index]!;
  return {
    user: { id: NO_ACCOUNT_USER_ID, email: signer.email, name: "Borrower", authProvider: "local" },
    roles: [],
    capabilities: ["signer:signings:read", "signer:esignatures:write", "bank:link"],
    signerSession: { sessionId: randomUUID(), packageId: pkg.id, signerId: signer.id, method: "link" },
  };
}

/** A sent package whose signers are each asked for one file. */
async function packageWithRequests(signerCount = 1) {
  counter += 1;
  const signers = Array.from({ length: signerCount }, (_, i) => ({ email: `session-upload-${counter}-${i}@example.test` }));
  const pkg = await createSignerPackage(testDb.db, { location: world.austin, signers, title: `Session uploads ${counter}` });
  const manager = await resolvePrincipal(testDb.db, localSubjectForEmail("manager@demo.local"));
  const requests = [];
  for (const signer of pkg.signers) {
    const [request] = await addAttachmentRequests(testDb.db, { principal: manager, packageId: pkg.id, signerId: signer.id, requests: [{ name: `License ${signer.email}` }] });
    requests.push(request!);
  }
  return { pkg, manager, requests };
}

/** `createUpload` as the principal, then the PUT exactly as answered, through the app's HTTP handler. */
async function uploaded(principal: Principal, bytes: Uint8Array, name: string, contentType: string): Promise<string> {
  const { id, put } = await createUpload(testDb.db, { principal, name, sizeBytes: bytes.byteLength, contentType, sha256: sha256(bytes) });
  const sent = await fetchApi(new Request(`http://core-api.test${new URL(put.url).pathname}`, { method: "PUT", headers: put.headers, body: bytes as Uint8Array<ArrayBuffer> }));
  expect(sent.status, await sent.clone().text()).toBeLessThan(300);
  return id;
}

const jpeg = async (width = 60, height = 40) => new Uint8Array(await sharp({ create: { width, height, channels: 3, background: { r: 30, g: 90, b: 160 } } }).jpeg().toBuffer());

/** A one-page PDF made `size` bytes or more by an unreferenced stream of random bytes (which no check reads). */
async function bigPdf(size: number): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.addPage([612, 792]);
  const filler = doc.context.stream(new Uint8Array(randomBytes(size)));
  doc.catalog.set(PDFName.of("Filler"), doc.context.register(filler));
  return doc.save();
}

describe("a signer session's uploads", () => {
  it("are the signer's: created without an account, PUT to the app, attached to the signer's request by id", async () => {
    const { pkg, requests } = await packageWithRequests();
    const session = signerSession(pkg);
    const photo = await jpeg();
    const uploadId = await uploaded(session, photo, "license.jpg", "image/jpeg");
    const [row] = await testDb.db.select().from(uploads).where(eq(uploads.id, uploadId));
    expect(row).toMatchObject({ createdByUserId: null, signerId: pkg.signers[0]!.id, agentLinkId: null });

    const attachment = await addSignerAttachment(testDb.db, { principal: session, packageId: pkg.id, requestId: requests[0]!.id, file: { uploadId } });
    expect(attachment).toMatchObject({ status: "pending", sourceType: "image/jpeg", fileName: "license.pdf", pageCount: 1, signerId: pkg.signers[0]!.id });
  });

  it("take a file between the inline 10 MiB and the attachment's 20 MiB; past 20 MiB the upload is refused when it is declared", async () => {
    const { pkg, requests } = await packageWithRequests();
    const session = signerSession(pkg);
    const pdf = await bigPdf(12 * MiB);
    const uploadId = await uploaded(session, pdf, "statement.pdf", "application/pdf");
    const attachment = await addSignerAttachment(testDb.db, { principal: session, packageId: pkg.id, requestId: requests[0]!.id, file: { uploadId } });
    expect(attachment).toMatchObject({ status: "pending", sourceType: "application/pdf", sizeBytes: pdf.byteLength });

    await expectAppError(createUpload(testDb.db, { principal: session, name: "huge.pdf", sizeBytes: 20 * MiB + 1, contentType: "application/pdf", sha256: "0".repeat(64) }), 413, /"huge.pdf" is 20971521 bytes; the limit here is 20 MiB/);
  }, 120_000);

  it("cannot be attached by another signer, of the same package or another, nor by a manager; nor can a signer attach a manager's upload", async () => {
    const { pkg, manager, requests } = await packageWithRequests(2);
    const other = await packageWithRequests();
    const first = signerSession(pkg, 0);
    const uploadId = await uploaded(first, await jpeg(), "license.jpg", "image/jpeg");

    // A co-signer of the same package, with their own request: the upload is not theirs.
    await expectAppError(addSignerAttachment(testDb.db, { principal: signerSession(pkg, 1), packageId: pkg.id, requestId: requests[1]!.id, file: { uploadId } }), 404, /Upload .* not found/);
    // Another package's signer.
    await expectAppError(
      addSignerAttachment(testDb.db, { principal: signerSession(other.pkg), packageId: other.pkg.id, requestId: other.requests[0]!.id, file: { uploadId } }),
      404,
      /Upload .* not found/,
    );
    // The signer's account (not the session), and the package's manager.
    const account = await resolvePrincipal(testDb.db, localSubjectForEmail(pkg.signers[0]!.email));
    await expectAppError(addSignerAttachment(testDb.db, { principal: account, packageId: pkg.id, requestId: requests[0]!.id, file: { uploadId } }), 404, /Upload .* not found/);
    await expectAppError(readUploadedFile(testDb.db, { principal: manager, uploadId, accept: SCAN_UPLOAD_TYPES }), 404, /Upload .* not found/);
    await expectAppError(verifyUpload(testDb.db, { principal: manager, uploadId }), 404);

    // A manager's upload is not the signer's to attach.
    const managers = await uploaded(manager, await jpeg(), "manager.jpg", "image/jpeg");
    await expectAppError(addSignerAttachment(testDb.db, { principal: first, packageId: pkg.id, requestId: requests[0]!.id, file: { uploadId: managers } }), 404, /Upload .* not found/);
    expect(await testDb.db.select().from(signerAttachments).where(eq(signerAttachments.packageId, pkg.id))).toEqual([]);

    // Its owner still can.
    await addSignerAttachment(testDb.db, { principal: first, packageId: pkg.id, requestId: requests[0]!.id, file: { uploadId } });
  });

  it("keep every check: a hash that does not match is refused at the PUT, a file that is not what it says at verification, and an expired one is swept", async () => {
    const { pkg, requests } = await packageWithRequests();
    const session = signerSession(pkg);
    const photo = await jpeg();
    const { id, put } = await createUpload(testDb.db, { principal: session, name: "a.jpg", sizeBytes: photo.byteLength, contentType: "image/jpeg", sha256: "0".repeat(64) });
    const wrong = await fetchApi(new Request(`http://core-api.test${new URL(put.url).pathname}`, { method: "PUT", headers: put.headers, body: photo as Uint8Array<ArrayBuffer> }));
    expect(wrong.status).toBe(400);
    await expectAppError(verifyUpload(testDb.db, { principal: session, uploadId: id }), 409, /Nothing has arrived/);

    const notPng = await uploaded(session, photo, "a.png", "image/png");
    await expectAppError(verifyUpload(testDb.db, { principal: session, uploadId: notPng }), 400, /image\/jpeg; image\/png was declared/);

    const expired = await uploaded(session, await jpeg(61, 40), "late.jpg", "image/jpeg");
    await testDb.db.update(uploads).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(uploads.id, expired));
    await expectAppError(addSignerAttachment(testDb.db, { principal: session, packageId: pkg.id, requestId: requests[0]!.id, file: { uploadId: expired } }), 409, /expired/);
    expect(await sweepExpiredUploads(testDb.db, { limit: 100 })).toBeGreaterThanOrEqual(1);
    expect(await testDb.db.select().from(uploads).where(eq(uploads.id, expired))).toEqual([]);
  });
});

describe("a settlement agent session's uploads", () => {
  /** A sent package with a wet-sign note (it takes scans) and a settlement agent's link; the agent's session principal. */
  async function agentPackage() {
    counter += 1;
    const manager = await managerOf(testDb.db, world.austin.organizationId);
    const borrower = await ensureUser(testDb.db, `session-upload-borrower-${counter}@demo.local`);
    const created = await createSigning(testDb.db, {
      principal: manager,
      locationId: world.austin.id,
      title: `Agent uploads ${counter}`,
      signers: [{ name: "Pat Borrower", email: borrower.email }],
      documents: [{ name: "Note.pdf", bytes: await renderAgreementPdf({ title: `Note ${counter}`, parties: ["Borrower"], pages: 1 }), executionMode: "wet_sign" as const }],
    });
    await sendSigning(testDb.db, { principal: manager, packageId: created.id });
    const agentEmail = `agent-${counter}@title.example`;
    const link = await issueAgentLink(testDb.db, { principal: manager, packageId: created.id, input: { agentName: "Dana Reyes", agentEmail } });
    return { pkg: { id: created.id }, manager, agent: agentSessionPrincipal({ id: link.id, packageId: created.id, agentName: "Dana Reyes", agentEmail }) };
  }

  it("are the agent link's, and upload a scan to the package the same way the manager's form does", async () => {
    const { pkg, agent } = await agentPackage();
    const scan = await jpeg(850, 1100);
    const uploadId = await uploaded(agent, scan, "scan.jpg", "image/jpeg");
    const [row] = await testDb.db.select().from(uploads).where(eq(uploads.id, uploadId));
    expect(row).toMatchObject({ createdByUserId: null, signerId: null, agentLinkId: agent.agentSession!.linkId });

    const files = await readUploadedFiles(testDb.db, { principal: agent, uploadIds: [uploadId], accept: SCAN_UPLOAD_TYPES });
    const result = await uploadScanback(testDb.db, { principal: agent, packageId: pkg.id, files });
    expect(result.pageCount).toBe(1);
  });

  it("cannot be read by the manager, another package's agent or a signer; the agent cannot attach a manager's; past 10 MiB it is refused when declared", async () => {
    const { pkg, manager, agent } = await agentPackage();
    const other = await agentPackage();
    const uploadId = await uploaded(agent, await jpeg(), "scan.jpg", "image/jpeg");
    await expectAppError(readUploadedFile(testDb.db, { principal: manager, uploadId, accept: SCAN_UPLOAD_TYPES }), 404, /Upload .* not found/);
    await expectAppError(readUploadedFile(testDb.db, { principal: other.agent, uploadId, accept: SCAN_UPLOAD_TYPES }), 404, /Upload .* not found/);
    const signers = await testDb.db.select().from(packageSigners).where(eq(packageSigners.packageId, pkg.id));
    const borrower = signerSession({ id: pkg.id, documents: [], requests: new Map(), signers: signers.map((s) => ({ id: s.id, userId: s.userId ?? "", email: s.email, routingOrder: s.routingOrder })) });
    await expectAppError(readUploadedFile(testDb.db, { principal: borrower, uploadId, accept: SCAN_UPLOAD_TYPES }), 404, /Upload .* not found/);

    const managers = await uploaded(manager, await jpeg(), "manager.jpg", "image/jpeg");
    await expectAppError(readUploadedFile(testDb.db, { principal: agent, uploadId: managers, accept: SCAN_UPLOAD_TYPES }), 404, /Upload .* not found/);

    await expectAppError(createUpload(testDb.db, { principal: agent, name: "huge.pdf", sizeBytes: 10 * MiB + 1, contentType: "application/pdf", sha256: "0".repeat(64) }), 413, /"huge.pdf" is 10485761 bytes; the limit here is 10 MiB/);
  });
});
