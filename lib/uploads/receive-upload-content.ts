import { createHash, timingSafeEqual } from "node:crypto";
import { and, eq, isNotNull } from "drizzle-orm";
import type { Db } from "@/db/client";
import { fileObjects, uploads } from "@/db/schema";
import { AppError, BadRequest, Conflict, Unauthorized } from "@/lib/errors";
import { isUuid } from "@/lib/ids";
import { UPLOAD_URL_SECONDS } from "./upload-limits";

const INVALID_TOKEN = "Invalid, used or expired upload token.";

/**
 * The app's own PUT endpoint for a direct upload (the embedded default's stand-in for S3's presigned
 * PUT): the single-use token must match, the body must have the declared type and exactly the
 * declared size and SHA-256. The body is read as it arrives into one buffer of the declared size
 * (the file is held once) and refused at the first byte past it; only bytes that match are stored,
 * under their content key, and the token is then spent.
 */
export async function receiveUploadContent(
  db: Db,
  options: { uploadId: string; token: string | undefined; contentType: string | undefined; contentLength?: string | null; body: ReadableStream<Uint8Array> | null },
): Promise<void> {
  if (!options.token || !isUuid(options.uploadId)) throw Unauthorized(INVALID_TOKEN);
  const [upload] = await db.select().from(uploads).where(and(eq(uploads.id, options.uploadId), isNotNull(uploads.tokenHash)));
  const presented = createHash("sha256").update(options.token).digest();
  if (!upload?.tokenHash || !timingSafeEqual(presented, Buffer.from(upload.tokenHash, "hex"))) throw Unauthorized(INVALID_TOKEN);
  if (Date.now() > upload.createdAt.getTime() + UPLOAD_URL_SECONDS * 1000) throw Unauthorized(INVALID_TOKEN);

  const mediaType = (options.contentType ?? "").split(";")[0]!.trim().toLowerCase();
  if (mediaType !== upload.contentType) {
    throw BadRequest(`Content-Type: the upload was declared as ${upload.contentType}, but the body was sent as ${mediaType || "nothing"}.`);
  }
  // A body announced at another length than declared is refused before anything is read or kept,
  // with the words a body found too long or too short would get.
  const announced = /^\d{1,15}$/.test(options.contentLength ?? "") ? Number(options.contentLength) : undefined;
  if (announced !== undefined && announced > upload.sizeBytes) throw tooLong(upload.sizeBytes);
  if (announced !== undefined && announced < upload.sizeBytes) throw tooShort(announced, upload.sizeBytes);
  // One buffer of the declared size, filled as the body arrives (never the chunks and then a joined
  // copy: the file twice), taken at the first byte (a request that stalls before sending holds
  // nothing); a byte past the declared size is refused before it is kept.
  let content: Buffer | undefined;
  let size = 0;
  const hash = createHash("sha256");
  if (options.body) {
    const reader = options.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (size + value.byteLength > upload.sizeBytes) {
        await reader.cancel().catch(() => {});
        throw tooLong(upload.sizeBytes);
      }
      hash.update(value);
      content ??= Buffer.alloc(upload.sizeBytes);
      content.set(value, size);
      size += value.byteLength;
    }
  }
  if (size !== upload.sizeBytes) throw tooShort(size, upload.sizeBytes);
  const sha256 = hash.digest("hex");
  if (sha256 !== upload.sha256) throw BadRequest(`The body's SHA-256 is ${sha256}; ${upload.sha256} was declared for this upload.`);

  await db.transaction(async (tx) => {
    const [spent] = await tx
      .update(uploads)
      .set({ tokenHash: null })
      .where(and(eq(uploads.id, upload.id), eq(uploads.tokenHash, upload.tokenHash!)))
      .returning({ id: uploads.id });
    if (!spent) throw Conflict("This upload's bytes were already received.");
    await tx
      .insert(fileObjects)
      .values({ key: upload.storageKey, sha256, sizeBytes: size, contentType: upload.contentType, content: content ?? Buffer.alloc(0) })
      .onConflictDoNothing({ target: fileObjects.key });
  });
}

const tooLong = (declared: number) => new AppError("payload_too_large", `The body exceeds the ${declared} bytes declared for this upload.`);
const tooShort = (size: number, declared: number) => BadRequest(`The body has ${size} bytes; ${declared} were declared for this upload.`);
