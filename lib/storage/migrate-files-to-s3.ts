import { createHash } from "node:crypto";
import { and, asc, eq, gt } from "drizzle-orm";
import type { Db } from "@/db/client";
import { chattelDocumentFiles, fileObjects, organizationLogos } from "@/db/schema";
import { s3HasObject, s3PutObject, s3Target } from "./objects";

export type MigrationCounts = { objects: number; chattelFiles: number; logos: number };

const sha256Hex = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

/**
 * Moves every file still held in the database to the configured S3 bucket, one file at a time (so
 * memory holds one file): the embedded store's objects (`file_objects`), chattel document files and
 * organization logos. Each file is checked against its recorded SHA-256 before it is written, the
 * bucket's copy is checked by size after, and only then does the database let go of its bytes. Safe to
 * stop at any moment (even `kill -9`) and run again: a file is in the database until its object is in
 * the bucket, and writing an object that is already there is skipped.
 */
export async function migrateFilesToS3(
  db: Db,
  options: { onFile?: (what: string) => void; afterPut?: (key: string) => Promise<void> | void } = {},
): Promise<MigrationCounts> {
  const target = s3Target();
  if (!target) throw new Error("S3 storage is not configured: set S3_BUCKET (and S3_ENDPOINT, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY) first.");
  const counts: MigrationCounts = { objects: 0, chattelFiles: 0, logos: 0 };

  const verifiedPut = async (key: string, bytes: Uint8Array, contentType: string, expectedSha256: string) => {
    const actual = sha256Hex(bytes);
    if (actual !== expectedSha256) throw new Error(`${key}: the stored bytes hash to ${actual}, not the recorded ${expectedSha256}; left in the database.`);
    await s3PutObject(target, { key, bytes, contentType, sha256: actual });
    const head = await s3HasObject(target, key);
    if (!head || head.sizeBytes !== bytes.byteLength) throw new Error(`${key}: the bucket's copy is ${head?.sizeBytes ?? "missing"} bytes, not ${bytes.byteLength}; left in the database.`);
    await options.afterPut?.(key);
  };

  for (;;) {
    const [object] = await db.select().from(fileObjects).orderBy(asc(fileObjects.key)).limit(1);
    if (!object) break;
    await verifiedPut(object.key, object.content, object.contentType, object.sha256);
    await db.delete(fileObjects).where(eq(fileObjects.key, object.key));
    counts.objects += 1;
    options.onFile?.(object.key);
  }

  let after = "";
  for (;;) {
    const [file] = await db
      .select()
      .from(chattelDocumentFiles)
      .where(and(eq(chattelDocumentFiles.storage, "database"), gt(chattelDocumentFiles.id, after || "00000000-0000-0000-0000-000000000000")))
      .orderBy(asc(chattelDocumentFiles.id))
      .limit(1);
    if (!file) break;
    after = file.id;
    if (!file.content) continue;
    const key = `documents/${file.chattelDocumentId}/${file.id}`;
    await verifiedPut(key, file.content, file.contentType, file.sha256);
    await db
      .update(chattelDocumentFiles)
      .set({ storage: "s3", storageKey: key, content: null })
      .where(and(eq(chattelDocumentFiles.id, file.id), eq(chattelDocumentFiles.storage, "database")));
    counts.chattelFiles += 1;
    options.onFile?.(key);
  }

  for (;;) {
    const [logo] = await db.select().from(organizationLogos).where(eq(organizationLogos.storage, "database")).orderBy(asc(organizationLogos.organizationId)).limit(1);
    if (!logo) break;
    if (!logo.content) throw new Error(`The logo of organization ${logo.organizationId} is marked as kept in the database but has no bytes.`);
    const key = `branding/${logo.organizationId}/${logo.sha256}.${logo.contentType === "image/png" ? "png" : "jpg"}`;
    await verifiedPut(key, logo.content, logo.contentType, logo.sha256);
    await db
      .update(organizationLogos)
      .set({ storage: "s3", storageKey: key, content: null })
      .where(and(eq(organizationLogos.organizationId, logo.organizationId), eq(organizationLogos.storage, "database")));
    counts.logos += 1;
    options.onFile?.(key);
  }
  return counts;
}
