import type { Db } from "@/db/client";
import { CreateUploadSchema } from "@/lib/api/schemas/uploads";
import { describeIssues } from "@/lib/api/validation";
import type { Principal } from "@/lib/auth/principal";
import { AppError } from "@/lib/errors";
import { createUpload, type UploadTarget } from "@/lib/uploads/create-upload";
import { verifyUpload } from "@/lib/uploads/verify-upload";

/** A step a form's upload field cannot take, in words for the person at the form. */
export type UploadRefused = { ok: false; error: string };

const refused = (error: unknown): UploadRefused => {
  if (error instanceof AppError) return { ok: false, error: error.message };
  throw error;
};

/**
 * The first step of a direct upload from a browser form, as `principal` (a manager, a signer's
 * session, an agent's session: the upload is then theirs alone), the same `createUpload` as
 * `POST /v1/uploads`: what the browser declares about a picked file, answered with where to PUT its
 * bytes. The server actions of each form resolve the principal and call this; no file passes through
 * a server action.
 */
export async function startUploadAs(db: Db, principal: Principal, declared: unknown): Promise<{ ok: true; id: string; put: UploadTarget } | UploadRefused> {
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
export async function completeUploadAs(db: Db, principal: Principal, uploadId: unknown): Promise<{ ok: true; pageCount: number } | UploadRefused> {
  if (typeof uploadId !== "string") return { ok: false, error: "Missing the upload id." };
  try {
    const upload = await verifyUpload(db, { principal, uploadId });
    return { ok: true, pageCount: upload.pageCount ?? 0 };
  } catch (error) {
    return refused(error);
  }
}
