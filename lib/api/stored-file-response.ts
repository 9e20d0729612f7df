import { presignedDownloadUrl, type StoredDownload } from "@/lib/storage/objects";
import { contentDisposition } from "./content-disposition";

/**
 * The response for an authorized download of a stored file: with S3 configured, a 302 to a presigned
 * GET of a few minutes (the bytes never pass through this server); otherwise the bytes, streamed
 * from the database. A file that has no object (the ZIP of a package) is streamed as it is built.
 */
export async function storedFileResponse(file: StoredDownload): Promise<Response> {
  const common = { "Cache-Control": "private, no-store", "X-Content-Type-Options": "nosniff" };
  if (file.storageKey) {
    const url = await presignedDownloadUrl(file.storageKey, { filename: file.fileName, contentType: file.contentType });
    if (url) return new Response(null, { status: 302, headers: { ...common, Location: url } });
  }
  if (file.stream) {
    return new Response(file.stream(), {
      status: 200,
      headers: { ...common, "Content-Type": file.contentType, "Content-Disposition": contentDisposition("attachment", file.fileName) },
    });
  }
  const bytes = await file.read();
  return new Response(new Uint8Array(bytes.buffer as ArrayBuffer, bytes.byteOffset, bytes.byteLength), {
    status: 200,
    headers: {
      ...common,
      "Content-Type": file.contentType,
      "Content-Disposition": contentDisposition("attachment", file.fileName),
      "Content-Length": String(bytes.byteLength),
      ...(file.sha256 ? { ETag: `"${file.sha256}"` } : {}),
    },
  });
}
