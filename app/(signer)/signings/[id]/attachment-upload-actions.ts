"use server";

import { requirePrincipal } from "@/app/_lib/require-principal";
import { CreateUploadSchema } from "@/lib/api/schemas/uploads";
import { describeIssues } from "@/lib/api/validation";
import { AppError } from "@/lib/errors";
import { createUpload, type UploadTarget } from "@/lib/uploads/create-upload";
import { verifyUpload } from "@/lib/uploads/verify-upload";

type Refused = { ok: false; error: string };

const refused = (error: unknown): Refused => {
  if (error instanceof AppError) return { ok: false, error: error.message };
  throw error;
};

/**
 * The first step of a signer's attachment uploaded straight to storage from the package page (the same
 * `createUpload` as `POST /v1/uploads`), as the page's signer: their signer session of this package
 * (the upload is then that signer's, attachable only by them) or their account. No file passes
 * through a server action, so a host's request-body limit does not bound the file.
 */
export async function startAttachmentUpload(signingId: string, declared: unknown): Promise<{ ok: true; id: string; put: UploadTarget } | Refused> {
  const { db, principal } = await requirePrincipal(`/signings/${encodeURIComponent(signingId)}`, { signerOf: signingId });
  const parsed = CreateUploadSchema.safeParse(declared);
  if (!parsed.success) return { ok: false, error: describeIssues(parsed.error) };
  try {
    const { id, put } = await createUpload(db, { principal, name: parsed.data.name, sizeBytes: parsed.data.size, contentType: parsed.data.contentType, sha256: parsed.data.sha256 });
    return { ok: true, id, put };
  } catch (error) {
    return refused(error);
  }
}

/** The last step: the server checks what arrived (`verifyUpload`, as `POST /v1/uploads/{id}/complete`). */
export async function completeAttachmentUpload(signingId: string, uploadId: unknown): Promise<{ ok: true; pageCount: number } | Refused> {
  const { db, principal } = await requirePrincipal(`/signings/${encodeURIComponent(signingId)}`, { signerOf: signingId });
  if (typeof uploadId !== "string") return { ok: false, error: "Missing the upload id." };
  try {
    const upload = await verifyUpload(db, { principal, uploadId });
    return { ok: true, pageCount: upload.pageCount ?? 0 };
  } catch (error) {
    return refused(error);
  }
}
