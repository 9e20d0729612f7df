import { ListObjectsV2Command, PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { createHash } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chattelDocumentFiles, fileObjects, organizationLogos, packageDocuments } from "@/db/schema";
import { localSubjectForEmail } from "@/lib/auth/local-tokens";
import { resolvePrincipal } from "@/lib/auth/principal";
import { readOrganizationLogo, setOrganizationLogo } from "@/lib/branding/organization-logo";
import { createChattelDocument } from "@/lib/chattel-documents/create-chattel-document";
import { setEnvForTests } from "@/lib/env";
import { renderAgreementPdf } from "@/lib/pdf/pdf";
import { migrateFilesToS3 } from "@/lib/storage/migrate-files-to-s3";
import { readObject } from "@/lib/storage/objects";
import { startS3rver, type RunningS3 } from "../fakes/s3/start-s3rver";
import { createTestDb, type TestDb } from "../helpers/db";
import { loadDemoWorld, type DemoWorld } from "../helpers/fixtures";
import { createSignerPackage, pngDataUrl } from "../helpers/signing-fixtures";

// Files written on the embedded default (no S3) are moved to the bucket by storage:migrate: verified,
// resumable after a crash at any point, and idempotent. (storage-migrate-kill.test.ts kills the real
// script with SIGKILL; these tests stop it at chosen points.)

let s3: RunningS3;
let testDb: TestDb;
let world: DemoWorld;

beforeAll(async () => {
  s3 = await startS3rver();
  setEnvForTests({ S3_BUCKET: "" });
  testDb = await createTestDb();
  world = await loadDemoWorld(testDb.db);
});
afterAll(async () => {
  setEnvForTests({ S3_BUCKET: "" });
  await testDb.cleanup();
  await s3.stop();
});

const s3Client = () => new S3Client({ region: "us-east-1", endpoint: s3.env.S3_ENDPOINT, forcePathStyle: true, credentials: { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" } });

async function bucketKeys(): Promise<string[]> {
  const listed = await s3Client().send(new ListObjectsV2Command({ Bucket: "documents" }));
  return (listed.Contents ?? []).map((o) => o.Key!).sort();
}

describe("npm run storage:migrate", () => {
  it("moves every file from the database to the bucket; a crash halfway loses and duplicates nothing", async () => {
    const pkg = await createSignerPackage(testDb.db, { location: world.austin, title: "Before S3", documentCount: 3, signers: [{ email: "before-s3@demo.local" }] });
    const owner = await resolvePrincipal(testDb.db, localSubjectForEmail("owner@demo.local"));
    const logo = Buffer.from(pngDataUrl(40, 20).split(",")[1]!, "base64");
    await setOrganizationLogo(testDb.db, { principal: owner!, organizationId: world.austin.organizationId, bytes: logo });
    // A logo written before logos were objects: its bytes inline in its row.
    const logoKey = `sha256/${createHash("sha256").update(logo).digest("hex")}`;
    await testDb.db.update(organizationLogos).set({ storage: "database", storageKey: null, content: logo }).where(eq(organizationLogos.organizationId, world.austin.organizationId));
    await testDb.db.delete(fileObjects).where(eq(fileObjects.key, logoKey));
    // A chattel file written before files were objects, on S3 under its own per-row key.
    const manager = (await resolvePrincipal(testDb.db, localSubjectForEmail("manager@demo.local")))!;
    const chattel = await createChattelDocument(testDb.db, {
      principal: manager,
      locationId: world.austin.id,
      fields: { type: "certificate_of_title", title: "Legacy title", borrowerName: "Sam Signer", borrowerEmail: "sam@example.com", dealerContacts: [] },
    });
    const scan = Buffer.from(await renderAgreementPdf({ title: "Legacy scan", parties: ["Sam"], pages: 1 }));
    const scanSha = createHash("sha256").update(scan).digest("hex");
    const legacyKey = `documents/${chattel.id}/legacy.pdf`;
    await s3Client().send(new PutObjectCommand({ Bucket: "documents", Key: legacyKey, Body: scan, ContentType: "application/pdf" }));
    const [legacyFile] = await testDb.db
      .insert(chattelDocumentFiles)
      .values({ chattelDocumentId: chattel.id, fileName: "legacy.pdf", contentType: "application/pdf", sizeBytes: scan.byteLength, sha256: scanSha, storage: "s3", storageKey: legacyKey })
      .returning();

    const documents = await testDb.db.select().from(packageDocuments).where(eq(packageDocuments.packageId, pkg.id));
    const originals = new Map(await Promise.all(documents.map(async (d) => [d.storageKey, await readObject(testDb.db, d.storageKey)] as const)));
    const objectCount = (await testDb.db.select({ key: fileObjects.key }).from(fileObjects)).length;
    expect(objectCount).toBeGreaterThanOrEqual(3);

    setEnvForTests(s3.env);
    // Crash right after the second object reached the bucket, before the database let go of it.
    let puts = 0;
    await expect(
      migrateFilesToS3(testDb.db, {
        afterPut: () => {
          puts += 1;
          if (puts === 2) throw new Error("killed");
        },
      }),
    ).rejects.toThrow("killed");
    expect((await testDb.db.select({ key: fileObjects.key }).from(fileObjects)).length).toBe(objectCount - 1);
    // Meanwhile every file still reads, from wherever it is.
    for (const [key, bytes] of originals) expect(Buffer.from(await readObject(testDb.db, key)).equals(Buffer.from(bytes))).toBe(true);

    const counts = await migrateFilesToS3(testDb.db);
    expect(counts.objects).toBe(objectCount - 1);
    expect(counts.logos).toBe(1);
    expect(counts.chattelFiles).toBe(1);
    expect(await testDb.db.select({ key: fileObjects.key }).from(fileObjects)).toEqual([]);
    // The old files are now the objects of their SHA-256; the per-row object is gone.
    const [logoRow] = await testDb.db.select().from(organizationLogos).where(eq(organizationLogos.organizationId, world.austin.organizationId));
    expect(logoRow).toMatchObject({ storage: "s3", storageKey: logoKey, content: null });
    const [fileRow] = await testDb.db.select().from(chattelDocumentFiles).where(eq(chattelDocumentFiles.id, legacyFile!.id));
    expect(fileRow).toMatchObject({ storage: "s3", storageKey: `sha256/${scanSha}`, content: null });
    expect(Buffer.from(await readObject(testDb.db, `sha256/${scanSha}`)).equals(scan)).toBe(true);

    const keys = await bucketKeys();
    expect(keys).not.toContain(legacyKey);
    expect(keys).toContain(logoKey);
    expect(keys.length).toBe(objectCount + 2);
    for (const [key, bytes] of originals) {
      expect(keys).toContain(key);
      expect(Buffer.from(await readObject(testDb.db, key)).equals(Buffer.from(bytes))).toBe(true);
    }
    expect(Buffer.from((await readOrganizationLogo(testDb.db, world.austin.organizationId))!.bytes).equals(logo)).toBe(true);

    // Running it again changes nothing.
    expect(await migrateFilesToS3(testDb.db)).toEqual({ objects: 0, chattelFiles: 0, logos: 0 });
    expect(await bucketKeys()).toEqual(keys);
  });

  it("a file moved from its per-row object resumes after a crash that deleted that object before the row pointed at the new one", async () => {
    // The state such a crash leaves: the row still names its per-row key, which is gone; the object of its SHA-256 is in the bucket.
    const manager = (await resolvePrincipal(testDb.db, localSubjectForEmail("manager@demo.local")))!;
    const chattel = await createChattelDocument(testDb.db, {
      principal: manager,
      locationId: world.austin.id,
      fields: { type: "certificate_of_title", title: "Half-moved title", borrowerName: "Sam Signer", borrowerEmail: "sam@example.com", dealerContacts: [] },
    });
    const scan = Buffer.from(await renderAgreementPdf({ title: "Half-moved scan", parties: ["Sam"], pages: 1 }));
    const scanSha = createHash("sha256").update(scan).digest("hex");
    await s3Client().send(new PutObjectCommand({ Bucket: "documents", Key: `sha256/${scanSha}`, Body: scan, ContentType: "application/pdf" }));
    const goneKey = `documents/${chattel.id}/gone.pdf`;
    const [row] = await testDb.db
      .insert(chattelDocumentFiles)
      .values({ chattelDocumentId: chattel.id, fileName: "gone.pdf", contentType: "application/pdf", sizeBytes: scan.byteLength, sha256: scanSha, storage: "s3", storageKey: goneKey })
      .returning();
    expect(await bucketKeys()).not.toContain(goneKey);

    setEnvForTests(s3.env);
    expect(await migrateFilesToS3(testDb.db)).toEqual({ objects: 0, chattelFiles: 1, logos: 0 });
    const [moved] = await testDb.db.select().from(chattelDocumentFiles).where(eq(chattelDocumentFiles.id, row!.id));
    expect(moved).toMatchObject({ storage: "s3", storageKey: `sha256/${scanSha}`, content: null });
    expect(Buffer.from(await readObject(testDb.db, `sha256/${scanSha}`)).equals(scan)).toBe(true);
  });

  it("refuses to run without S3 configured", async () => {
    setEnvForTests({ S3_BUCKET: "" });
    await expect(migrateFilesToS3(testDb.db)).rejects.toThrow(/S3_BUCKET/);
  });
});
