import { createHash } from "node:crypto";
import { and, asc, eq, isNotNull, like, not, or } from "drizzle-orm";
import type { Db } from "@/db/client";
import { chattelDocumentFiles, fileObjects, organizationLogos } from "@/db/schema";
import { deleteObjectIfUnreferenced, objectKeyFor, s3GetObject, s3HasObject, s3PutObject, s3Target } from "./objects";

export type MigrationCounts = { objects: number; chattelFiles: number; logos: number };

const sha256Hex = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

/**
 * Moves every file still held in the database to the configured S3 bucket, one file at a time (so
 * memory holds one file): the embedded store's objects (`file_objects`), then chattel document files
 * and organization logos written before they were objects (inline bytes, or a per-row bucket key),
 * which become the object of their SHA-256. Each file is checked against its recorded SHA-256 before it is written, the
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

  // Rows of files stored as objects on the embedded default: their objects are in the bucket now.
  await db.update(chattelDocumentFiles).set({ storage: "s3" }).where(and(eq(chattelDocumentFiles.storage, "database"), like(chattelDocumentFiles.storageKey, "sha256/%")));
  await db.update(organizationLogos).set({ storage: "s3" }).where(and(eq(organizationLogos.storage, "database"), like(organizationLogos.storageKey, "sha256/%")));

  // Files written before chattel files and logos were objects: bytes inline in the row, or in the
  // bucket under a per-row key. Each becomes the object of its SHA-256 (checked), then the row points
  // at it and the old per-row object goes (unless something else refers to it) in one transaction: a
  // crash before it commits leaves the row as it was, to be moved again (its old object may already be
  // deleted then; the bytes are read back from the object of their SHA-256, which is in the bucket).
  const moveToObject = async (
    file: { storageKey: string | null; content: Uint8Array | null; contentType: string; sha256: string },
    point: (tx: Db, key: string) => Promise<void>,
  ) => {
    const key = objectKeyFor(file.sha256);
    const bytes = file.content ?? (file.storageKey ? ((await s3GetObject(target, file.storageKey)) ?? (await s3GetObject(target, key))) : undefined);
    if (!bytes) throw new Error(`${file.storageKey ?? "a row"}: no bytes to move (not inline, not in the bucket).`);
    await verifiedPut(key, bytes, file.contentType, file.sha256);
    await db.transaction(async (tx) => {
      await point(tx, key);
      if (file.storageKey && file.storageKey !== key) await deleteObjectIfUnreferenced(tx, file.storageKey);
    });
    options.onFile?.(key);
  };
  const legacyChattel = or(isNotNull(chattelDocumentFiles.content), not(like(chattelDocumentFiles.storageKey, "sha256/%")));
  for (;;) {
    const [file] = await db.select().from(chattelDocumentFiles).where(legacyChattel).orderBy(asc(chattelDocumentFiles.id)).limit(1);
    if (!file) break;
    await moveToObject(file, async (tx, key) => {
      await tx.update(chattelDocumentFiles).set({ storage: "s3", storageKey: key, content: null }).where(eq(chattelDocumentFiles.id, file.id));
    });
    counts.chattelFiles += 1;
  }
  const legacyLogo = or(isNotNull(organizationLogos.content), not(like(organizationLogos.storageKey, "sha256/%")));
  for (;;) {
    const [logo] = await db.select().from(organizationLogos).where(legacyLogo).orderBy(asc(organizationLogos.organizationId)).limit(1);
    if (!logo) break;
    await moveToObject(logo, async (tx, key) => {
      await tx.update(organizationLogos).set({ storage: "s3", storageKey: key, content: null }).where(eq(organizationLogos.organizationId, logo.organizationId));
    });
    counts.logos += 1;
  }
  return counts;
}
