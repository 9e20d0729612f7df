import { storedFileResponse } from "@/lib/api/stored-file-response";
import type { StoredDownload } from "@/lib/storage/objects";

/**
 * A stored file for a signed-in page (after its permission check), privately cached with its SHA-256
 * as ETag (304 when it matches): inline (viewers, previews) streamed from storage, or as an
 * attachment (`?download=1`), a presigned GET of the bucket when S3 holds it. `contentType` is what we
 * determined, never what an uploader claimed.
 */
export function fileResponse(request: Request, file: StoredDownload, disposition: "inline" | "attachment" = "inline"): Promise<Response> {
  return storedFileResponse(file, { request, disposition, cache: "revalidate" });
}
