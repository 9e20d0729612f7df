import { and, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { fileObjects, uploads, type Upload } from "@/db/schema";
import type { Principal } from "@/lib/auth/principal";
import { sha256Hex } from "@/lib/pdf/pdf";
import { validatePdfUpload } from "@/lib/pdf/validate-pdf-upload";
import { BadRequest, Conflict, NotFound } from "@/lib/errors";
import { isUuid } from "@/lib/ids";
import { s3CopyObject, s3DeleteObject, s3GetObject, s3HasObject, s3Target } from "@/lib/storage/objects";
import { serializeUpload } from "./serialize-upload";

/**
 * The caller's upload, or 404: an upload belongs to the user who created it (the API key's user),
 * and to nobody else, whatever their roles. An expired one is a 409 that says so.
 */
export async function getUploadOrThrow(db: Db, options: { principal: Principal; uploadId: string; lock?: boolean }): Promise<Upload> {
  const notFound = NotFound(`Upload ${options.uploadId} not found.`);
  if (!isUuid(options.uploadId)) throw notFound;
  const query = db
    .select()
    .from(uploads)
    .where(and(eq(uploads.id, options.uploadId), eq(uploads.createdByUserId, options.principal.user.id)));
  const [upload] = options.lock ? await query.for("update") : await query;
  if (!upload) throw notFound;
  if (upload.expiresAt.getTime() <= Date.now()) {
    throw Conflict(`Upload ${upload.id} expired at ${upload.expiresAt.toISOString()}; create a new upload.`);
  }
  return upload;
}

/**
 * Checks what arrived for an upload, once: exactly the declared size, SHA-256 and type, and a PDF
 * that opens, is not encrypted and has at most 500 pages. With S3 the bytes are read from the staging
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
  let bytes: Uint8Array;
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
    const read = await s3GetObject(target, upload.stagingKey);
    if (!read) throw notArrived;
    bytes = read;
    const sha256 = sha256Hex(bytes);
    if (sha256 !== upload.sha256) throw await refuse(`The uploaded file's SHA-256 is ${sha256}; ${upload.sha256} was declared.`);
    let pdf;
    try {
      pdf = await validatePdfUpload({ bytes, name: upload.name, direct: true });
    } catch (error) {
      await s3DeleteObject(target, upload.stagingKey);
      throw error;
    }
    await s3CopyObject(target, { from: upload.stagingKey, to: upload.storageKey, contentType: upload.contentType });
    await s3DeleteObject(target, upload.stagingKey);
    return markVerified(db, upload, pdf.pageCount);
  }
  if (upload.tokenHash) throw notArrived;
  const [object] = await db.select({ content: fileObjects.content }).from(fileObjects).where(eq(fileObjects.key, upload.storageKey));
  if (!object) throw notArrived;
  bytes = object.content;
  // The PUT endpoint checked size and hash before storing; the PDF itself is checked here.
  const pdf = await validatePdfUpload({ bytes, name: upload.name, direct: true });
  return markVerified(db, upload, pdf.pageCount);
}

async function markVerified(db: Db, upload: Upload, pageCount: number) {
  const [verified] = await db.update(uploads).set({ verifiedAt: new Date(), pageCount }).where(eq(uploads.id, upload.id)).returning();
  return serializeUpload(verified!);
}
