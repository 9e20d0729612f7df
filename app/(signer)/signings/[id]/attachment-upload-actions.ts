"use server";

import { completeUploadAs, startUploadAs, type UploadRefused } from "@/app/_lib/direct-upload-steps";
import { requirePrincipal } from "@/app/_lib/require-principal";
import type { UploadTarget } from "@/lib/uploads/create-upload";

/**
 * The first step of a signer's attachment uploaded straight to storage from the package page (the same
 * `createUpload` as `POST /v1/uploads`), as the page's signer: their signer session of this package
 * (the upload is then that signer's, attachable only by them) or their account. No file passes
 * through a server action, so a host's request-body limit does not bound the file.
 */
export async function startAttachmentUpload(signingId: string, declared: unknown): Promise<{ ok: true; id: string; put: UploadTarget } | UploadRefused> {
  const { db, principal } = await requirePrincipal(`/signings/${encodeURIComponent(signingId)}`, { signerOf: signingId });
  return startUploadAs(db, principal, declared);
}

/** The last step: the server checks what arrived (`verifyUpload`, as `POST /v1/uploads/{id}/complete`). */
export async function completeAttachmentUpload(signingId: string, uploadId: unknown): Promise<{ ok: true; pageCount: number } | UploadRefused> {
  const { db, principal } = await requirePrincipal(`/signings/${encodeURIComponent(signingId)}`, { signerOf: signingId });
  return completeUploadAs(db, principal, uploadId);
}
