"use server";

import { CreateUploadSchema } from "@/lib/api/schemas/uploads";
import { describeIssues } from "@/lib/api/validation";
import { AppError } from "@/lib/errors";
import { createUpload, type UploadTarget } from "@/lib/uploads/create-upload";
import { verifyUpload } from "@/lib/uploads/verify-upload";
import { requirePrincipal } from "../../../_lib/require-principal";

/** A signed-out manager comes back to their package list after signing in (the form they used is gone). */
const RETURN_TO = "/signings";

type Refused = { ok: false; error: string };

const refused = (error: unknown): Refused => {
  if (error instanceof AppError) return { ok: false, error: error.message };
  throw error;
};

/**
 * The first step of a direct upload from a manager's form (the package form, a template's documents,
 * a chattel document's files, scanbacks, the logo) (the same `createUpload` as `POST /v1/uploads`):
 * what the browser declares about a picked file, answered with where to PUT its bytes. No file
 * passes through a server action.
 */
export async function startDocumentUpload(declared: unknown): Promise<{ ok: true; id: string; put: UploadTarget } | Refused> {
  const { db, principal } = await requirePrincipal(RETURN_TO);
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
export async function completeDocumentUpload(uploadId: unknown): Promise<{ ok: true; pageCount: number } | Refused> {
  const { db, principal } = await requirePrincipal(RETURN_TO);
  if (typeof uploadId !== "string") return { ok: false, error: "Missing the upload id." };
  try {
    const upload = await verifyUpload(db, { principal, uploadId });
    return { ok: true, pageCount: upload.pageCount ?? 0 };
  } catch (error) {
    return refused(error);
  }
}
