import { and, inArray, lte } from "drizzle-orm";
import type { Db } from "@/db/client";
import { uploads } from "@/db/schema";
import { deleteObjectIfUnreferenced, s3DeleteObject, s3Target } from "@/lib/storage/objects";

/**
 * Deletes up to `limit` uploads past their expiry, with their staging object and their content
 * object unless a document (or another upload) refers to it. An upload being attached holds its row
 * lock, so its deletion waits for that transaction and then finds the document that refers to the
 * object. Safe to repeat or run concurrently (`skip locked`). Returns how many were deleted.
 */
export async function sweepExpiredUploads(db: Db, options: { limit: number; now?: Date }): Promise<number> {
  const now = options.now ?? new Date();
  const deleted = await db.transaction(async (tx) => {
    const due = await tx
      .select({ id: uploads.id })
      .from(uploads)
      .where(lte(uploads.expiresAt, now))
      .orderBy(uploads.expiresAt)
      .limit(options.limit)
      .for("update", { skipLocked: true });
    if (due.length === 0) return [];
    return tx
      .delete(uploads)
      .where(and(inArray(uploads.id, due.map((u) => u.id)), lte(uploads.expiresAt, now)))
      .returning({ id: uploads.id, storageKey: uploads.storageKey, stagingKey: uploads.stagingKey });
  });
  const target = s3Target();
  for (const upload of deleted) {
    if (target) await s3DeleteObject(target, upload.stagingKey);
    await deleteObjectIfUnreferenced(db, upload.storageKey);
  }
  return deleted.length;
}


