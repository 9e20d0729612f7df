import { ListObjectsV2Command, S3Client } from "@aws-sdk/client-s3";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fileObjects, organizationLogos, packageDocuments } from "@/db/schema";
import { localSubjectForEmail } from "@/lib/auth/local-tokens";
import { resolvePrincipal } from "@/lib/auth/principal";
import { readOrganizationLogo, setOrganizationLogo } from "@/lib/branding/organization-logo";
import { setEnvForTests } from "@/lib/env";
import { migrateFilesToS3 } from "@/lib/storage/migrate-files-to-s3";
import { readObject } from "@/lib/storage/objects";
import { startS3rver, type RunningS3 } from "../fakes/s3/start-s3rver";
import { createTestDb, type TestDb } from "../helpers/db";
import { loadDemoWorld, type DemoWorld } from "../helpers/fixtures";
import { createSignerPackage, pngDataUrl } from "../helpers/signing-fixtures";

// Files written on the embedded default (no S3) are moved to the bucket by storage:migrate: verified,
// resumable after a crash at any point, and idempotent.

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

async function bucketKeys(): Promise<string[]> {
  const client = new S3Client({ region: "us-east-1", endpoint: s3.env.S3_ENDPOINT, forcePathStyle: true, credentials: { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" } });
  const listed = await client.send(new ListObjectsV2Command({ Bucket: "documents" }));
  return (listed.Contents ?? []).map((o) => o.Key!).sort();
}

describe("npm run storage:migrate", () => {
  it("moves every file from the database to the bucket; a crash halfway loses and duplicates nothing", async () => {
    const pkg = await createSignerPackage(testDb.db, { location: world.austin, title: "Before S3", documentCount: 3, signers: [{ email: "before-s3@demo.local" }] });
    const owner = await resolvePrincipal(testDb.db, localSubjectForEmail("owner@demo.local"));
    const logo = Buffer.from(pngDataUrl(40, 20).split(",")[1]!, "base64");
    await setOrganizationLogo(testDb.db, { principal: owner!, organizationId: world.austin.organizationId, bytes: logo });

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
    expect(await testDb.db.select({ key: fileObjects.key }).from(fileObjects)).toEqual([]);
    const [logoRow] = await testDb.db.select().from(organizationLogos).where(eq(organizationLogos.organizationId, world.austin.organizationId));
    expect(logoRow).toMatchObject({ storage: "s3", content: null });

    const keys = await bucketKeys();
    expect(keys.length).toBe(objectCount + 1);
    for (const [key, bytes] of originals) {
      expect(keys).toContain(key);
      expect(Buffer.from(await readObject(testDb.db, key)).equals(Buffer.from(bytes))).toBe(true);
    }
    expect(Buffer.from((await readOrganizationLogo(testDb.db, world.austin.organizationId))!.bytes).equals(logo)).toBe(true);

    // Running it again changes nothing.
    expect(await migrateFilesToS3(testDb.db)).toEqual({ objects: 0, chattelFiles: 0, logos: 0 });
    expect(await bucketKeys()).toEqual(keys);
  });

  it("refuses to run without S3 configured", async () => {
    setEnvForTests({ S3_BUCKET: "" });
    await expect(migrateFilesToS3(testDb.db)).rejects.toThrow(/S3_BUCKET/);
  });
});
