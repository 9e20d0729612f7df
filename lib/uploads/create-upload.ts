import { createHash, randomBytes } from "node:crypto";
import type { Db } from "@/db/client";
import { uploads } from "@/db/schema";
import { hasCapability, type Principal } from "@/lib/auth/principal";
import { MAX_PDF_BYTES, MAX_UPLOADED_PDF_BYTES, pdfTooLarge } from "@/lib/pdf/validate-pdf-upload";
import { getEnv } from "@/lib/env";
import { AppError, BadRequest, Forbidden } from "@/lib/errors";
import { uuidv7 } from "@/db/uuidv7";
import { objectKeyFor, presignedUploadUrl, s3Target } from "@/lib/storage/objects";
import { serializeUpload } from "./serialize-upload";
import { uploadOwnerOf } from "./upload-owner";
import { MAX_SIGNER_UPLOAD_BYTES, UPLOAD_CONTENT_TYPES, UPLOAD_TOKEN_HEADER, UPLOAD_TTL_MS, UPLOAD_URL_SECONDS } from "./upload-limits";

/**
 * Whoever may attach an uploaded file somewhere may upload one: documents, templates, chattel files,
 * scans, the logo, and a signer's attachments (through `/v1`, or the signer's page in their session),
 * and a settlement agent's scans (the agent's page in their session).
 */
const UPLOADING_CAPABILITIES = ["signings:write", "templates:write", "documents:write", "scanbacks:write", "settings:write", "signer:esignatures:write"] as const;

export type CreateUploadInput = { name: string; sizeBytes: number; contentType: string; sha256: string };

/** Where and how the client sends the bytes: one PUT, whichever storage is behind it. */
export type UploadTarget = { method: "PUT"; url: string; headers: Record<string, string>; expiresAt: string };

/**
 * Starts a direct upload for the caller: checks what is declared (a PDF, PNG or JPEG of at most 100 MiB;
 * from a signer's session at most 20 MiB, an attachment's limit; from a settlement agent's, 10 MiB, a
 * scan's), records its owner (`uploadOwnerOf`: the user, the signer, or the agent's link) and
 * answers a short-lived PUT bounded to that size, type and hash. With S3 configured it is S3's own
 * presigned PUT of a staging object; on the embedded default it is the app's own endpoint with a
 * single-use token in a header (only its hash is stored). The bytes are checked again when the
 * upload is verified, since a staging PUT to an S3-compatible store may not enforce the signed checksum.
 */
export async function createUpload(db: Db, options: CreateUploadInput & { principal: Principal }) {
  if (!UPLOADING_CAPABILITIES.some((capability) => hasCapability(options.principal, capability))) {
    throw Forbidden("You do not have permission to upload documents.");
  }
  // A session's upload can only become what that session may add: a signer's, an attachment; an agent's, a scan.
  const maxBytes = options.principal.signerSession ? MAX_SIGNER_UPLOAD_BYTES : options.principal.agentSession ? MAX_PDF_BYTES : MAX_UPLOADED_PDF_BYTES;
  const contentType = options.contentType.toLowerCase();
  if (!(UPLOAD_CONTENT_TYPES as readonly string[]).includes(contentType)) {
    throw BadRequest(`contentType: ${options.contentType} is not accepted; upload ${UPLOAD_CONTENT_TYPES.join(" or ")}.`);
  }
  if (options.sizeBytes > maxBytes) {
    throw maxBytes === MAX_UPLOADED_PDF_BYTES
      ? pdfTooLarge(options.sizeBytes, MAX_UPLOADED_PDF_BYTES, "for an uploaded PDF")
      : new AppError("payload_too_large", `"${options.name.trim().slice(0, 200)}" is ${options.sizeBytes} bytes; the limit here is ${maxBytes / 1024 / 1024} MiB (${maxBytes} bytes).`);
  }
  const sha256 = options.sha256.toLowerCase();
  const id = uuidv7();
  const now = Date.now();
  const urlExpiresAt = new Date(now + UPLOAD_URL_SECONDS * 1000);
  const target = s3Target();
  const stagingKey = `uploads/${id}`;
  const token = target ? undefined : randomBytes(32).toString("base64url");
  const [upload] = await db
    .insert(uploads)
    .values({
      id,
      ...uploadOwnerOf(options.principal),
      name: options.name.trim().slice(0, 200),
      contentType,
      sizeBytes: options.sizeBytes,
      sha256,
      storageKey: objectKeyFor(sha256),
      stagingKey,
      tokenHash: token ? createHash("sha256").update(token).digest("hex") : null,
      expiresAt: new Date(now + UPLOAD_TTL_MS),
    })
    .returning();
  let put: UploadTarget;
  if (target) {
    const signed = await presignedUploadUrl(target, { key: stagingKey, contentType, sizeBytes: options.sizeBytes, sha256, expiresIn: UPLOAD_URL_SECONDS });
    put = { method: "PUT", url: signed.url, headers: signed.headers, expiresAt: urlExpiresAt.toISOString() };
  } else {
    put = {
      method: "PUT",
      url: new URL(`/v1/uploads/${id}/content`, getEnv().APP_URL).toString(),
      headers: { "Content-Type": contentType, [UPLOAD_TOKEN_HEADER]: token! },
      expiresAt: urlExpiresAt.toISOString(),
    };
  }
  return { ...serializeUpload(upload!), put };
}
