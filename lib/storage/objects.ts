import { createHash } from "node:crypto";
import { GetObjectCommand, HeadObjectCommand, PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { getSignedUrl } from "@aws-sdk/s3-request-presigner";
import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { fileObjects } from "@/db/schema";
import { getEnv, type Env } from "@/lib/env";
import { s3ConfigFrom, type S3Config } from "./s3-file-storage";

/**
 * Every file's bytes (package, template and sealed documents, certificates, scans, scanback pages,
 * direct uploads) are an immutable object keyed by their SHA-256: `sha256/<hex>`. With `S3_BUCKET`
 * set the objects live in that (private) bucket; otherwise in the database's `file_objects` table,
 * the embedded default. The same content is stored once, however many rows refer to it (a template
 * PDF copied into 500 packages is one object). Rows keep the key, size, type and hash.
 */

export type ObjectRef = { storageKey: string; sha256: string; sizeBytes: number };

export const objectKeyFor = (sha256: string) => `sha256/${sha256}`;

const sha256Hex = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

type S3Target = { client: S3Client; bucket: string };
let cached: { config: string; target: S3Target } | undefined;

/** The bucket new objects go to, or undefined on the embedded default. */
export function s3Target(env: Env = getEnv()): S3Target | undefined {
  const config = s3ConfigFrom(env);
  if (!config) return undefined;
  const key = JSON.stringify(config);
  if (cached?.config !== key) cached = { config: key, target: { client: clientFor(config), bucket: config.bucket } };
  return cached.target;
}

function clientFor(config: S3Config) {
  return new S3Client({ region: config.region, endpoint: config.endpoint, forcePathStyle: config.forcePathStyle, credentials: config.credentials });
}

const isMissing = (error: unknown) => {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name === "NotFound" || e?.name === "NoSuchKey" || e?.$metadata?.httpStatusCode === 404;
};

/** Whether the bucket already holds `key` (objects are immutable, so present means complete). */
export async function s3HasObject(target: S3Target, key: string): Promise<{ sizeBytes: number; contentType?: string } | undefined> {
  try {
    const head = await target.client.send(new HeadObjectCommand({ Bucket: target.bucket, Key: key }));
    return { sizeBytes: Number(head.ContentLength ?? 0), contentType: head.ContentType };
  } catch (error) {
    if (isMissing(error)) return undefined;
    throw error;
  }
}

async function s3GetObject(target: S3Target, key: string): Promise<Uint8Array | undefined> {
  try {
    const object = await target.client.send(new GetObjectCommand({ Bucket: target.bucket, Key: key }));
    if (!object.Body) return undefined;
    return await object.Body.transformToByteArray();
  } catch (error) {
    if (isMissing(error)) return undefined;
    throw error;
  }
}

/** Writes an object to the bucket; put-if-absent, so a repeated put of the same content is free. */
export async function s3PutObject(target: S3Target, input: { key: string; bytes: Uint8Array; contentType: string; sha256: string }) {
  if (await s3HasObject(target, input.key)) return;
  await target.client.send(
    new PutObjectCommand({
      Bucket: target.bucket,
      Key: input.key,
      Body: input.bytes,
      ContentType: input.contentType,
      ChecksumSHA256: Buffer.from(input.sha256, "hex").toString("base64"),
    }),
  );
}

/**
 * Stores the bytes (put-if-absent) and returns what the row keeps. On the embedded default the
 * object row is written with `db`, so inside a transaction it commits or rolls back with the row
 * that refers to it; an S3 object written by a transaction that then rolls back is an unreferenced
 * object, harmless (objects are immutable and named by their content).
 */
export async function putObject(db: Db, input: { bytes: Uint8Array; contentType: string }): Promise<ObjectRef> {
  const sha256 = sha256Hex(input.bytes);
  const key = objectKeyFor(sha256);
  const target = s3Target();
  if (target) await s3PutObject(target, { key, bytes: input.bytes, contentType: input.contentType, sha256 });
  else {
    await db
      .insert(fileObjects)
      .values({ key, sha256, sizeBytes: input.bytes.byteLength, contentType: input.contentType, content: input.bytes })
      .onConflictDoNothing({ target: fileObjects.key });
  }
  return { storageKey: key, sha256, sizeBytes: input.bytes.byteLength };
}

/**
 * Reads an object's bytes. With S3 configured the bucket answers; an object not (yet) moved there by
 * `npm run storage:migrate` is still read from the database, so configuring S3 breaks no old file.
 */
export async function readObject(db: Db, key: string): Promise<Uint8Array> {
  const target = s3Target();
  if (target) {
    const bytes = await s3GetObject(target, key);
    if (bytes) return bytes;
  }
  const [row] = await db.select({ content: fileObjects.content }).from(fileObjects).where(eq(fileObjects.key, key));
  if (!row) throw new Error(`The stored object ${key} is missing from ${target ? "the bucket and the database" : "the database"}.`);
  return row.content;
}

/** How long a presigned download stays valid: long enough to start it, short enough not to be shared. */
export const PRESIGNED_GET_SECONDS = 300;

/**
 * A presigned GET of a few minutes that answers with the given `Content-Disposition` and type, or
 * undefined when the object is not in a bucket (embedded default, or not migrated yet): the caller
 * then streams the bytes itself. Call it only after the permission check.
 */
export async function presignedDownloadUrl(
  key: string,
  options: { filename: string; contentType: string; disposition?: "attachment" | "inline" },
): Promise<string | undefined> {
  const target = s3Target();
  if (!target || !(await s3HasObject(target, key))) return undefined;
  return getSignedUrl(
    target.client,
    new GetObjectCommand({
      Bucket: target.bucket,
      Key: key,
      ResponseContentType: options.contentType,
      ResponseContentDisposition: contentDisposition(options.disposition ?? "attachment", options.filename),
    }),
    { expiresIn: PRESIGNED_GET_SECONDS },
  );
}

/** RFC 6266 `Content-Disposition` for the presigned GET (the same form the API answers with). */
function contentDisposition(type: "inline" | "attachment", fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]|["\\]/g, "_");
  return `${type}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}
