"use server";

import { completeUploadAs, startUploadAs, type UploadRefused } from "@/app/_lib/direct-upload-steps";
import type { UploadTarget } from "@/lib/uploads/create-upload";
import { requirePrincipal } from "../../../_lib/require-principal";

/** A signed-out manager comes back to their package list after signing in (the form they used is gone). */
const RETURN_TO = "/signings";

/**
 * The first step of a direct upload from a manager's form (the package form, a template's documents,
 * a chattel document's files, scanbacks, the logo) (the same `createUpload` as `POST /v1/uploads`):
 * what the browser declares about a picked file, answered with where to PUT its bytes. No file
 * passes through a server action.
 */
export async function startDocumentUpload(declared: unknown): Promise<{ ok: true; id: string; put: UploadTarget } | UploadRefused> {
  const { db, principal } = await requirePrincipal(RETURN_TO);
  return startUploadAs(db, principal, declared);
}

/** The last step: the server checks what arrived (`verifyUpload`, as `POST /v1/uploads/{id}/complete`). */
export async function completeDocumentUpload(uploadId: unknown): Promise<{ ok: true; pageCount: number } | UploadRefused> {
  const { db, principal } = await requirePrincipal(RETURN_TO);
  return completeUploadAs(db, principal, uploadId);
}
