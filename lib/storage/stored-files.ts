import type { Db } from "@/db/client";
import { log } from "@/lib/log";
import { deleteObjectIfUnreferenced, openObject, putObject, readObject, s3Target, type OpenedObject } from "./objects";
import type { StoredFile } from "./types";

/**
 * Chattel document files and organization logos are stored like every other file: one object per
 * distinct content, keyed by its SHA-256 (`sha256/<hex>`, in the bucket or, on the embedded default,
 * `file_objects`). Their rows keep the key, size, type and hash. Rows written before that keep their
 * bytes inline (`content`, storage `database`) or under a per-row bucket key, until
 * `npm run storage:migrate` moves them; every read below handles all three.
 */

/** Stores the bytes (put-if-absent, by content) and returns the row's storage columns. Call it in the row's transaction. */
export async function putStoredFile(db: Db, input: { bytes: Uint8Array; contentType: string }): Promise<StoredFile & { sha256: string; sizeBytes: number }> {
  const ref = await putObject(db, input);
  return { storage: s3Target() ? "s3" : "database", storageKey: ref.storageKey, content: null, sha256: ref.sha256, sizeBytes: ref.sizeBytes };
}

/** The file's bytes: from its object when the row has a key, else from the row (a file written before objects). */
export async function readStoredFile(db: Db, file: StoredFile): Promise<Uint8Array> {
  if (file.storageKey) return readObject(db, file.storageKey);
  if (!file.content) throw new Error("A stored file has neither an object key nor inline bytes.");
  return file.content;
}

/** The file opened for streaming, when it is an object (a row holding its bytes inline has them already). */
export async function openStoredFile(db: Db, file: Pick<StoredFile, "storageKey">): Promise<OpenedObject | undefined> {
  return file.storageKey ? openObject(db, file.storageKey) : undefined;
}

/**
 * After the rows are gone: removes each file's object unless another row (any file table, an upload)
 * still refers to it, since identical content is one object. Failures are logged, not thrown.
 */
export async function releaseStoredFiles(db: Db, files: Pick<StoredFile, "storageKey">[]): Promise<void> {
  for (const key of new Set(files.map((f) => f.storageKey).filter((k): k is string => Boolean(k)))) {
    try {
      await deleteObjectIfUnreferenced(db, key);
    } catch (error) {
      log.warn("could not delete a stored file; the object is orphaned", { storageKey: key, error });
    }
  }
}
