import type { Db } from "@/db/client";
import type { Principal } from "@/lib/auth/principal";
import { AppError, BadRequest, Conflict } from "@/lib/errors";
import { MAX_PDF_BYTES } from "@/lib/pdf/validate-pdf-upload";
import { readObject } from "@/lib/storage/objects";
import type { UploadContentType } from "./upload-limits";
import { getUploadOrThrow, verifyUpload } from "./verify-upload";

/** A file the caller uploaded straight to storage, as a form that takes bytes receives it. */
export type UploadedFile = { name: string; contentType: UploadContentType; bytes: Uint8Array };

/**
 * The caller's direct upload (`POST /v1/uploads`), verified if it was not yet, read back from storage
 * for a domain function that takes a file's bytes (a scanback, a chattel file, the logo). The bytes
 * reached storage without passing through any request to this app, so a host's request-body limit
 * does not bound them; the attaching function's own limits and checks still apply. These forms
 * (chattel files, scans, logos) take at most 10 MiB a file (a signer's attachment, 20 MiB: `maxBytes`) and must decode or inspect the whole file,
 * so the bytes are read into one buffer of the upload's size, and only after its verified size is
 * within that bound; a package or template PDF is never read back here (it is attached by its key). An upload of a
 * type the form does not take is a 400 naming the types it does.
 */
export async function readUploadedFile(db: Db, options: { principal: Principal; uploadId: string; accept: readonly UploadContentType[]; maxBytes?: number }): Promise<UploadedFile> {
  const maxBytes = options.maxBytes ?? MAX_PDF_BYTES;
  await verifyUpload(db, { principal: options.principal, uploadId: options.uploadId });
  const upload = await getUploadOrThrow(db, { principal: options.principal, uploadId: options.uploadId });
  if (!upload.verifiedAt) throw Conflict(`Upload ${upload.id} has not been verified yet; try again.`);
  if (!(options.accept as readonly string[]).includes(upload.contentType)) {
    throw BadRequest(`Upload ${upload.id} is ${upload.contentType}; here only ${options.accept.join(", ")} is accepted.`);
  }
  // Verified, so its size is the object's: one larger than any of these forms takes is refused before it is read.
  if (upload.sizeBytes > maxBytes) throw new AppError("payload_too_large", `"${upload.name}" is ${upload.sizeBytes} bytes; the limit here is ${maxBytes / 1024 / 1024} MiB (${maxBytes} bytes).`);
  return { name: upload.name, contentType: upload.contentType as UploadContentType, bytes: await readObject(db, upload.storageKey) };
}

/** Several uploads, in order (a scanback's files); the first refused one is the error. */
export async function readUploadedFiles(db: Db, options: { principal: Principal; uploadIds: readonly string[]; accept: readonly UploadContentType[] }): Promise<UploadedFile[]> {
  const files: UploadedFile[] = [];
  for (const uploadId of options.uploadIds) files.push(await readUploadedFile(db, { ...options, uploadId }));
  return files;
}
