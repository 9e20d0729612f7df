import { ListObjectsV2Command, S3Client } from "@aws-sdk/client-s3";
import { createHash } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chattelDocumentFiles, fileObjects, organizationLogos } from "@/db/schema";
import { localSubjectForEmail } from "@/lib/auth/local-tokens";
import { resolvePrincipal, type Principal } from "@/lib/auth/principal";
import { readOrganizationLogo, setOrganizationLogo } from "@/lib/branding/organization-logo";
import { createChattelDocument } from "@/lib/chattel-documents/create-chattel-document";
import { deleteDocumentFile } from "@/lib/chattel-documents/delete-document-file";
import { getDocumentFileDownload } from "@/lib/chattel-documents/get-document-file-content";
import { uploadDocumentFile } from "@/lib/chattel-documents/upload-document-file";
import { setEnvForTests } from "@/lib/env";
import { renderAgreementPdf } from "@/lib/pdf/pdf";
import { startS3rver, type RunningS3 } from "../fakes/s3/start-s3rver";
import { createTestDb, type TestDb } from "../helpers/db";
import { loadDemoWorld, type DemoWorld } from "../helpers/fixtures";
import { pngDataUrl } from "../helpers/signing-fixtures";

// Chattel document files and logos are stored like package documents: one object per distinct
// content, keyed by its SHA-256, on both the embedded default and S3; rows keep key, size, type, hash.

let s3: RunningS3;
let testDb: TestDb;
let world: DemoWorld;
let manager: Principal;
let owner: Principal;

beforeAll(async () => {
  s3 = await startS3rver();
  testDb = await createTestDb();
  world = await loadDemoWorld(testDb.db);
  manager = (await resolvePrincipal(testDb.db, localSubjectForEmail("manager@demo.local")))!;
  owner = (await resolvePrincipal(testDb.db, localSubjectForEmail("owner@demo.local")))!;
});
afterAll(async () => {
  setEnvForTests({ S3_BUCKET: "" });
  await testDb.cleanup();
  await s3.stop();
});

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");
const client = () => new S3Client({ region: "us-east-1", endpoint: s3.env.S3_ENDPOINT, forcePathStyle: true, credentials: { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" } });

async function objectKeys(kind: "database" | "s3"): Promise<string[]> {
  if (kind === "database") return (await testDb.db.select({ key: fileObjects.key }).from(fileObjects)).map((r) => r.key);
  return ((await client().send(new ListObjectsV2Command({ Bucket: "documents" }))).Contents ?? []).map((o) => o.Key!);
}

async function newDocument(title: string) {
  return createChattelDocument(testDb.db, {
    principal: manager,
    locationId: world.austin.id,
    fields: { type: "certificate_of_title", title, borrowerName: "Sam Signer", borrowerEmail: "sam@example.com", dealerContacts: [] },
  });
}

async function download(documentId: string, fileId: string) {
  return Buffer.from(await (await getDocumentFileDownload(testDb.db, { principal: manager, documentId, fileId })).read());
}

describe.each(["database", "s3"] as const)("chattel files and logos on %s storage", (kind) => {
  beforeAll(() => setEnvForTests(kind === "s3" ? s3.env : { S3_BUCKET: "" }));

  it("the same bytes are one object named by their SHA-256; it goes when the last row referring to it does", async () => {
    const pdf = await renderAgreementPdf({ title: `Title scan ${kind}`, parties: ["Sam"], pages: 1 });
    const key = `sha256/${sha256(pdf)}`;
    const first = await newDocument(`First ${kind}`);
    const second = await newDocument(`Second ${kind}`);
    const a = await uploadDocumentFile(testDb.db, { principal: manager, documentId: first.id, fileName: "title.pdf", bytes: pdf });
    const b = await uploadDocumentFile(testDb.db, { principal: manager, documentId: second.id, fileName: "copy.pdf", bytes: pdf });
    for (const row of [a, b]) {
      expect(row).toMatchObject({ storageKey: key, sizeBytes: pdf.byteLength, sha256: sha256(pdf), contentType: "application/pdf", storage: kind, content: null });
    }
    expect((await objectKeys(kind)).filter((k) => k === key)).toHaveLength(1);
    expect((await download(second.id, b.id)).equals(Buffer.from(pdf))).toBe(true);

    await deleteDocumentFile(testDb.db, { principal: manager, documentId: first.id, fileId: a.id });
    expect(await objectKeys(kind)).toContain(key);
    expect((await download(second.id, b.id)).equals(Buffer.from(pdf))).toBe(true);
    await deleteDocumentFile(testDb.db, { principal: manager, documentId: second.id, fileId: b.id });
    expect(await objectKeys(kind)).not.toContain(key);
  });

  it("a logo is the object of its SHA-256, shared with a chattel file of the same bytes; replacing it releases the old one", async () => {
    const logo = Buffer.from(pngDataUrl(kind === "s3" ? 40 : 41, 20).split(",")[1]!, "base64");
    const key = `sha256/${sha256(logo)}`;
    const organizationId = world.austin.organizationId;
    await setOrganizationLogo(testDb.db, { principal: owner, organizationId, bytes: logo });
    const [row] = await testDb.db.select().from(organizationLogos).where(eq(organizationLogos.organizationId, organizationId));
    expect(row).toMatchObject({ storageKey: key, sizeBytes: logo.byteLength, sha256: sha256(logo), contentType: "image/png", storage: kind, content: null });
    expect(Buffer.from((await readOrganizationLogo(testDb.db, organizationId))!.bytes).equals(logo)).toBe(true);

    const document = await newDocument(`Logo twin ${kind}`);
    const file = await uploadDocumentFile(testDb.db, { principal: manager, documentId: document.id, fileName: "logo.png", bytes: logo });
    expect(file.storageKey).toBe(key);
    expect((await objectKeys(kind)).filter((k) => k === key)).toHaveLength(1);

    // A new logo: the old object stays while the chattel file refers to it, and goes after.
    const next = Buffer.from(pngDataUrl(kind === "s3" ? 42 : 43, 20).split(",")[1]!, "base64");
    await setOrganizationLogo(testDb.db, { principal: owner, organizationId, bytes: next });
    expect(await objectKeys(kind)).toContain(key);
    await deleteDocumentFile(testDb.db, { principal: manager, documentId: document.id, fileId: file.id });
    expect(await objectKeys(kind)).not.toContain(key);
    expect(await objectKeys(kind)).toContain(`sha256/${sha256(next)}`);
    expect(await testDb.db.select().from(chattelDocumentFiles).where(eq(chattelDocumentFiles.id, file.id))).toEqual([]);
  });
});
