import { getEnv, type Env } from "@/lib/env";
import { Unavailable } from "@/lib/errors";
import { databaseFileStorage } from "./database-file-storage";
import { createS3FileStorage, s3ConfigFrom } from "./s3-file-storage";
import type { FileStorage, StorageKind } from "./types";

// The types live in ./types so the backends can implement them without importing this module.
export type { FileStorage, StorageKind, StoredFile } from "./types";

let s3: { key: string; storage: FileStorage } | undefined;

/** One S3 client per configuration (tests switch configurations; the SDK may touch the object it was given). */
function s3Storage(env: Env): FileStorage | undefined {
  const config = s3ConfigFrom(env);
  if (!config) return undefined;
  const key = JSON.stringify(config);
  if (s3?.key !== key) s3 = { key, storage: createS3FileStorage(config) };
  return s3.storage;
}

/** The backend new uploads go to: S3 when S3_BUCKET is set, otherwise the database. */
export function getFileStorage(env: Env = getEnv()): FileStorage {
  return s3Storage(env) ?? databaseFileStorage;
}

/** The backend holding an existing file, which may differ from the one new uploads use. */
export function fileStorageFor(kind: StorageKind, env: Env = getEnv()): FileStorage {
  if (kind === "database") return databaseFileStorage;
  const storage = s3Storage(env);
  if (!storage) throw Unavailable("This file is kept in S3 storage, which is not configured (S3_BUCKET).");
  return storage;
}
