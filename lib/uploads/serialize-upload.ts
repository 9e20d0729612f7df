import type { Upload } from "@/db/schema";

/** An upload as `/v1` shows it; never its token or where its bytes are staged. */
export function serializeUpload(upload: Upload) {
  return {
    id: upload.id,
    name: upload.name,
    contentType: upload.contentType,
    sizeBytes: upload.sizeBytes,
    sha256: upload.sha256,
    status: upload.verifiedAt ? ("verified" as const) : ("pending" as const),
    pageCount: upload.pageCount,
    expiresAt: upload.expiresAt.toISOString(),
    createdAt: upload.createdAt.toISOString(),
  };
}
