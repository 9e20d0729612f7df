import { createHash } from "node:crypto";
import { Readable } from "node:stream";
import { CopyObjectCommand, DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { getSignedUrl } from "@aws-sdk/s3-request-presigner";
import { eq, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { chattelDocumentFiles, documentScans, fileObjects, organizationLogos, packageDocuments, packageSeals, scanbackPages, scanbackScanFiles, sealedDocuments, signerAttachments, templateDocuments, transferableRecords, uploads } from "@/db/schema";
import { getEnv, type Env } from "@/lib/env";
import { s3ConfigFrom, type S3Config } from "./s3-file-storage";

/**
 * Every file's bytes (package, template and sealed documents, certificates, scans, scanback pages,
 * signers' attachments, chattel document files, logos, direct uploads) are an immutable object keyed by their SHA-256: `sha256/<hex>`. With `S3_BUCKET`
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

/**
 * An object's bytes, read into one buffer of the object's size as they arrive (the SDK's
 * `transformToByteArray` keeps every chunk and then a joined copy: twice the object).
 */
export async function s3GetObject(target: S3Target, key: string): Promise<Uint8Array | undefined> {
  try {
    const object = await target.client.send(new GetObjectCommand({ Bucket: target.bucket, Key: key }));
    if (!object.Body) return undefined;
    const size = object.ContentLength;
    if (size === undefined) return await object.Body.transformToByteArray();
    return await readInto(object.Body as AsyncIterable<Uint8Array>, size, key);
  } catch (error) {
    if (isMissing(error)) return undefined;
    throw error;
  }
}

async function readInto(body: AsyncIterable<Uint8Array>, size: number, key: string): Promise<Uint8Array> {
  const bytes = new Uint8Array(size);
  let at = 0;
  for await (const chunk of body) {
    if (at + chunk.byteLength > size) throw new Error(`The stored object ${key} is longer than its ${size} bytes.`);
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  if (at !== size) throw new Error(`The stored object ${key} ended early (${at} of ${size} bytes).`);
  return bytes;
}

/** An object's body as a Node stream (read as it is consumed), or undefined when it is missing. */
export async function s3GetObjectStream(target: S3Target, key: string): Promise<AsyncIterable<Uint8Array> | undefined> {
  try {
    const object = await target.client.send(new GetObjectCommand({ Bucket: target.bucket, Key: key }));
    return (object.Body as AsyncIterable<Uint8Array> | undefined) ?? undefined;
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
  await lockObjectKey(db, key, "shared");
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
 * Stores a file given as consecutive parts (a sealed PDF: the original, then the revision sealing
 * appended) whose SHA-256 the caller computed, without joining them in memory when it goes to the
 * bucket: the parts are streamed as the PUT's body, with their length and checksum, which S3 checks.
 * The embedded default joins them for its one database row.
 */
export async function putObjectParts(db: Db, input: { parts: Uint8Array[]; sha256: string; contentType: string }): Promise<ObjectRef> {
  const key = objectKeyFor(input.sha256);
  const sizeBytes = input.parts.reduce((n, p) => n + p.byteLength, 0);
  await lockObjectKey(db, key, "shared");
  const target = s3Target();
  if (target) {
    if (!(await s3HasObject(target, key))) {
      await target.client.send(
        new PutObjectCommand({
          Bucket: target.bucket,
          Key: key,
          Body: Readable.from(input.parts.map((p) => Buffer.from(p.buffer, p.byteOffset, p.byteLength)), { objectMode: false }),
          ContentLength: sizeBytes,
          ContentType: input.contentType,
          ChecksumSHA256: Buffer.from(input.sha256, "hex").toString("base64"),
        }),
      );
    }
  } else {
    const content = input.parts.length === 1 ? input.parts[0]! : Buffer.concat(input.parts);
    if (sha256Hex(content) !== input.sha256) throw new Error("The parts stored do not match their SHA-256.");
    await db.insert(fileObjects).values({ key, sha256: input.sha256, sizeBytes, contentType: input.contentType, content }).onConflictDoNothing({ target: fileObjects.key });
  }
  return { storageKey: key, sha256: input.sha256, sizeBytes };
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

/** An object opened for reading: its size, and its bytes as a stream read only as the consumer pulls. */
export type OpenedObject = { sizeBytes: number; stream: ReadableStream<Uint8Array> };

/** How much of a database-held object one read fetches while it is streamed. */
const DATABASE_CHUNK_BYTES = 1024 * 1024;

/**
 * Opens an object for streaming, never holding it whole: from the bucket, the GET's body as it
 * arrives; from the database (the embedded default, or an object not migrated yet), 1 MiB slices
 * (`substring` of the bytea) read one at a time as the consumer asks for more.
 */
export async function openObject(db: Db, key: string): Promise<OpenedObject> {
  const target = s3Target();
  if (target) {
    try {
      const object = await target.client.send(new GetObjectCommand({ Bucket: target.bucket, Key: key }));
      if (object.Body) return { sizeBytes: Number(object.ContentLength ?? 0), stream: object.Body.transformToWebStream() as ReadableStream<Uint8Array> };
    } catch (error) {
      if (!isMissing(error)) throw error;
    }
  }
  const [row] = await db
    .select({ sizeBytes: sql<number>`octet_length(${fileObjects.content})`.mapWith(Number) })
    .from(fileObjects)
    .where(eq(fileObjects.key, key));
  if (!row) throw new Error(`The stored object ${key} is missing from ${target ? "the bucket and the database" : "the database"}.`);
  const size = row.sizeBytes;
  let offset = 0;
  const stream = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (offset >= size) return controller.close();
        const [slice] = await db
          .select({ bytes: sql<Uint8Array>`substring(${fileObjects.content} from ${offset + 1} for ${DATABASE_CHUNK_BYTES})`.mapWith(fileObjects.content) })
          .from(fileObjects)
          .where(eq(fileObjects.key, key));
        if (!slice || slice.bytes.byteLength === 0) return controller.error(new Error(`The stored object ${key} ended early.`));
        offset += slice.bytes.byteLength;
        controller.enqueue(new Uint8Array(slice.bytes));
        if (offset >= size) controller.close();
      },
    },
    { highWaterMark: 0 },
  );
  return { sizeBytes: size, stream };
}

/**
 * A file an authorized caller may download: its name and type, and either its object in storage
 * (`storageKey`: streamed with `open`, or redirected to a presigned GET) or, for a file built on
 * request (the ZIP of a package), a stream built while it is sent. `read()` returns the whole bytes
 * (for callers that need them all, never for a download).
 */
export type StoredDownload = {
  fileName: string;
  contentType: string;
  sha256: string | null;
  storageKey: string | null;
  read: () => Promise<Uint8Array>;
  open?: () => Promise<OpenedObject>;
  stream?: () => ReadableStream<Uint8Array>;
};

/** The download of an object in storage, after the caller's permission check. */
export function objectDownload(db: Db, file: { fileName: string; contentType: string; sha256: string; storageKey: string }): StoredDownload {
  return { ...file, read: () => readObject(db, file.storageKey), open: () => openObject(db, file.storageKey) };
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

/**
 * S3's own presigned PUT of `key`, valid `expiresIn` seconds, with Content-Type, Content-Length and
 * the SHA-256 checksum signed in: S3 refuses a body of another size or hash, or sent with another
 * type. The client must send the returned headers (Content-Length follows from the body).
 */
export async function presignedUploadUrl(
  target: S3Target,
  input: { key: string; contentType: string; sizeBytes: number; sha256: string; expiresIn: number },
): Promise<{ url: string; headers: Record<string, string> }> {
  const checksum = Buffer.from(input.sha256, "hex").toString("base64");
  const url = await getSignedUrl(
    target.client,
    new PutObjectCommand({ Bucket: target.bucket, Key: input.key, ContentType: input.contentType, ContentLength: input.sizeBytes, ChecksumSHA256: checksum }),
    {
      expiresIn: input.expiresIn,
      signableHeaders: new Set(["content-type", "content-length"]),
      // Sent as a header (S3 checks the body against it), not hoisted into the query string.
      unhoistableHeaders: new Set(["x-amz-checksum-sha256"]),
    },
  );
  return { url, headers: { "Content-Type": input.contentType, "x-amz-checksum-sha256": checksum } };
}

/** Copies an object inside the bucket (server-side) unless the destination already exists. */
export async function s3CopyObject(target: S3Target, input: { from: string; to: string; contentType: string }) {
  if (await s3HasObject(target, input.to)) return;
  await target.client.send(
    new CopyObjectCommand({
      Bucket: target.bucket,
      Key: input.to,
      CopySource: `${target.bucket}/${input.from}`,
      ContentType: input.contentType,
      MetadataDirective: "REPLACE",
    }),
  );
}

/** Deletes an object from the bucket; a missing one is not an error. */
export async function s3DeleteObject(target: S3Target, key: string) {
  try {
    await target.client.send(new DeleteObjectCommand({ Bucket: target.bucket, Key: key }));
  } catch (error) {
    if (!isMissing(error)) throw error;
  }
}

/** Whether any file row (or an upload row other than `exceptUploadIds`) refers to the object `key`. */
export async function isObjectReferenced(db: Db, key: string, exceptUploadIds: string[] = []): Promise<boolean> {
  const except = exceptUploadIds.length > 0 ? sql`and ${uploads.id} not in (${sql.join(exceptUploadIds.map((id) => sql`${id}`), sql`, `)})` : sql``;
  const result = (await db.execute(sql`select (
    exists (select 1 from ${packageDocuments} where ${packageDocuments.storageKey} = ${key})
    or exists (select 1 from ${templateDocuments} where ${templateDocuments.storageKey} = ${key})
    or exists (select 1 from ${sealedDocuments} where ${sealedDocuments.storageKey} = ${key})
    or exists (select 1 from ${packageSeals} where ${packageSeals.certificateStorageKey} = ${key})
    or exists (select 1 from ${documentScans} where ${documentScans.storageKey} = ${key})
    or exists (select 1 from ${scanbackPages} where ${scanbackPages.imageStorageKey} = ${key})
    or exists (select 1 from ${scanbackScanFiles} where ${scanbackScanFiles.storageKey} = ${key})
    or exists (select 1 from ${signerAttachments} where ${signerAttachments.storageKey} = ${key})
    or exists (select 1 from ${transferableRecords} where ${transferableRecords.authoritativeStorageKey} = ${key})
    or exists (select 1 from ${chattelDocumentFiles} where ${chattelDocumentFiles.storageKey} = ${key})
    or exists (select 1 from ${organizationLogos} where ${organizationLogos.storageKey} = ${key})
    or exists (select 1 from ${uploads} where ${uploads.storageKey} = ${key} ${except})
  ) as referenced`)) as unknown as { referenced: boolean }[] | { rows: { referenced: boolean }[] };
  const rows = Array.isArray(result) ? result : result.rows;
  return rows[0]?.referenced === true;
}

/**
 * Serializes, per object key, a put (which skips an object that exists) with the deletion of an
 * unreferenced object: held until the caller's transaction ends, so a put whose row is not yet
 * committed cannot see an object that a concurrent deletion then removes. Puts share the lock (they
 * never wait for each other, so transactions putting several objects cannot deadlock); a deletion
 * holds it alone, for one key at a time.
 */
async function lockObjectKey(db: Db, key: string, mode: "shared" | "exclusive") {
  if (mode === "shared") await db.execute(sql`select pg_advisory_xact_lock_shared(hashtext(${key}))`);
  else await db.execute(sql`select pg_advisory_xact_lock(hashtext(${key}))`);
}

/** Deletes the object `key` (bucket and database) unless a row still refers to it. */
export async function deleteObjectIfUnreferenced(db: Db, key: string, exceptUploadIds: string[] = []): Promise<boolean> {
  return db.transaction(async (tx) => {
    await lockObjectKey(tx, key, "exclusive");
    if (await isObjectReferenced(tx, key, exceptUploadIds)) return false;
    const target = s3Target();
    if (target) await s3DeleteObject(target, key);
    await tx.delete(fileObjects).where(eq(fileObjects.key, key));
    return true;
  });
}
