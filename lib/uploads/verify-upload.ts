import { createHash } from "node:crypto";
import { and, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { fileObjects, uploads, type Upload } from "@/db/schema";
import type { Principal } from "@/lib/auth/principal";
import { sniffFileType } from "@/lib/chattel-documents/sniff-file-type";
import { validatePdfUpload } from "@/lib/pdf/validate-pdf-upload";
import { BadRequest, Conflict, NotFound } from "@/lib/errors";
import { isUuid } from "@/lib/ids";
import { s3CopyObject, s3DeleteObject, s3GetObjectStream, s3HasObject, s3Target } from "@/lib/storage/objects";
import { serializeUpload } from "./serialize-upload";
import { ownedBy } from "./upload-owner";

/**
 * The caller's upload, or 404: an upload belongs to whoever created it (the API key's or the page's
 * user, a signer's session as that signer of that package, a settlement agent's session as its link:
 * `uploadOwnerOf`), and to nobody else, whatever their roles. An expired one is a 409 that says so.
 */
export async function getUploadOrThrow(db: Db, options: { principal: Principal; uploadId: string; lock?: boolean }): Promise<Upload> {
  const notFound = NotFound(`Upload ${options.uploadId} not found.`);
  if (!isUuid(options.uploadId)) throw notFound;
  const query = db
    .select()
    .from(uploads)
    .where(and(eq(uploads.id, options.uploadId), ownedBy(options.principal)));
  const [upload] = options.lock ? await query.for("update") : await query;
  if (!upload) throw notFound;
  if (upload.expiresAt.getTime() <= Date.now()) {
    throw Conflict(`Upload ${upload.id} expired at ${upload.expiresAt.toISOString()}; create a new upload.`);
  }
  return upload;
}

/**
 * Checks what arrived for an upload, once: exactly the declared size, SHA-256 and type, and a PDF
 * that opens, is not encrypted and has at most 500 pages (an image: its format's signature). With S3 the bytes are read from the staging
 * object, copied (inside the bucket) to their content key and the staging object removed; on the
 * embedded default the app's PUT endpoint already stored them under their content key. Whatever is
 * wrong is a 4xx naming it, and the upload stays unverified (a refused staging object is deleted, so
 * the client may PUT again while the URL is valid). Repeating it on a verified upload changes nothing.
 */
export async function verifyUpload(db: Db, options: { principal: Principal; uploadId: string }) {
  const upload = await getUploadOrThrow(db, options);
  if (upload.verifiedAt) return serializeUpload(upload);
  const notArrived = Conflict(`Nothing has arrived for upload ${upload.id} yet: PUT the file to the upload URL first.`);
  const target = s3Target();
  if (target && !upload.tokenHash) {
    const head = await s3HasObject(target, upload.stagingKey);
    if (!head) {
      // Verified before by another request, or never sent.
      const [current] = await db.select().from(uploads).where(eq(uploads.id, upload.id));
      if (current?.verifiedAt) return serializeUpload(current);
      throw notArrived;
    }
    const refuse = async (message: string) => {
      await s3DeleteObject(target, upload.stagingKey);
      return BadRequest(message);
    };
    if (head.sizeBytes !== upload.sizeBytes) throw await refuse(`The uploaded file has ${head.sizeBytes} bytes; ${upload.sizeBytes} were declared.`);
    const type = (head.contentType ?? "").split(";")[0]!.trim().toLowerCase();
    if (type !== upload.contentType) throw await refuse(`The uploaded file was sent as ${type || "no type"}; ${upload.contentType} was declared.`);
    // Hashed as it streams from the bucket. An image is never held: its type is checked on its first
    // bytes. A PDF's bytes are kept, once (a buffer of the declared size, at most 100 MiB), because
    // opening it and counting its pages needs the whole file (its cross-reference is at the end).
    const read = await readStagedObject(target, upload.stagingKey, upload.sizeBytes, upload.contentType === "application/pdf");
    if (!read) throw notArrived;
    if (read.sha256 !== upload.sha256) throw await refuse(`The uploaded file's SHA-256 is ${read.sha256}; ${upload.sha256} was declared.`);
    let pageCount: number | null;
    try {
      pageCount = await checkContent(upload, read.bytes, read.head);
    } catch (error) {
      await s3DeleteObject(target, upload.stagingKey);
      throw error;
    }
    await s3CopyObject(target, { from: upload.stagingKey, to: upload.storageKey, contentType: upload.contentType });
    await s3DeleteObject(target, upload.stagingKey);
    return markVerified(db, upload, pageCount);
  }
  if (upload.tokenHash) throw notArrived;
  const [object] = await db.select({ content: fileObjects.content }).from(fileObjects).where(eq(fileObjects.key, upload.storageKey));
  if (!object) throw notArrived;
  // The PUT endpoint checked size and hash before storing; the content itself is checked here.
  return markVerified(db, upload, await checkContent(upload, object.content, object.content.subarray(0, 16)));
}

/**
 * What the declared type requires of the bytes: a PDF opens, is not encrypted and has at most 500
 * pages (its page count is returned); an image starts with its format's signature (its decoding is
 * the attaching form's check: a logo's sides, a scan's pixels). 400 naming what is wrong.
 */
async function checkContent(upload: Upload, bytes: Uint8Array | undefined, head: Uint8Array): Promise<number | null> {
  if (upload.contentType === "application/pdf") {
    const pdf = await validatePdfUpload({ bytes: bytes!, name: upload.name, direct: true });
    return pdf.pageCount;
  }
  const sniffed = sniffFileType(head);
  if (sniffed?.contentType !== upload.contentType) {
    throw BadRequest(`The uploaded file is ${sniffed ? sniffed.contentType : "not a PDF, PNG or JPEG"}; ${upload.contentType} was declared.`);
  }
  return null;
}

/**
 * A staged object read as a stream: its SHA-256 and its first bytes, always; its whole bytes only
 * when `keep` (a PDF, which must be opened), written as they arrive into one buffer of the size the
 * bucket reported, never as chunks then a joined copy. Reading more than that size is refused.
 */
async function readStagedObject(target: NonNullable<ReturnType<typeof s3Target>>, key: string, size: number, keep: boolean) {
  const body = await s3GetObjectStream(target, key);
  if (!body) return undefined;
  const hash = createHash("sha256");
  const kept = keep ? new Uint8Array(size) : undefined;
  let at = 0;
  let head = new Uint8Array(0);
  for await (const chunk of body) {
    const bytes = chunk as Uint8Array;
    if (at + bytes.byteLength > size) throw BadRequest(`The uploaded file is longer than its declared ${size} bytes.`);
    hash.update(bytes);
    if (head.byteLength < 16) head = Buffer.concat([head, bytes.subarray(0, 16 - head.byteLength)]);
    kept?.set(bytes, at);
    at += bytes.byteLength;
  }
  if (at !== size) throw BadRequest(`The uploaded file has ${at} bytes; ${size} were declared.`);
  return { sha256: hash.digest("hex"), head, bytes: kept };
}

async function markVerified(db: Db, upload: Upload, pageCount: number | null) {
  const [verified] = await db.update(uploads).set({ verifiedAt: new Date(), pageCount }).where(eq(uploads.id, upload.id)).returning();
  return serializeUpload(verified!);
}
