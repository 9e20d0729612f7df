import { presignedDownloadUrl, type StoredDownload } from "@/lib/storage/objects";
import { contentDisposition } from "./content-disposition";

export type StoredFileResponseOptions = {
  /** The request, for `If-None-Match`: a file with a SHA-256 answers 304 when the client has it. */
  request?: Request;
  /** `attachment` (a download, the default) or `inline` (a viewer or a preview). */
  disposition?: "attachment" | "inline";
  /** `no-store` (the default), or `revalidate`: cached privately, revalidated by its ETag every time. */
  cache?: "no-store" | "revalidate";
};

/**
 * The response for an authorized download of a stored file (call it after the permission check):
 * - a download (`attachment`) of an object in the bucket is a 302 to a presigned GET of a few
 *   minutes that answers with the same `Content-Disposition` and type: the bytes never pass here;
 * - otherwise (a viewer's `inline` file, which the page fetches from its own origin, or the embedded
 *   default) the object is streamed from storage as it is read, never held whole;
 * - a file built on request (the ZIP of a package) is streamed as it is built.
 */
export async function storedFileResponse(file: StoredDownload, options: StoredFileResponseOptions = {}): Promise<Response> {
  const disposition = options.disposition ?? "attachment";
  const etag = file.sha256 ? `"${file.sha256}"` : undefined;
  const common: Record<string, string> = {
    "Cache-Control": options.cache === "revalidate" && etag ? "private, no-cache" : "private, no-store",
    "X-Content-Type-Options": "nosniff",
    ...(etag ? { ETag: etag } : {}),
  };
  const ifNoneMatch = options.request?.headers.get("if-none-match");
  if (etag && ifNoneMatch && ifNoneMatch.split(",").some((tag) => tag.trim().replace(/^W\//, "") === etag)) {
    return new Response(null, { status: 304, headers: common });
  }
  if (file.storageKey && disposition === "attachment") {
    const url = await presignedDownloadUrl(file.storageKey, { filename: file.fileName, contentType: file.contentType, disposition });
    if (url) return new Response(null, { status: 302, headers: { ...common, Location: url } });
  }
  const headers = { ...common, "Content-Type": file.contentType, "Content-Disposition": contentDisposition(disposition, file.fileName) };
  if (file.open) {
    const opened = await file.open();
    return new Response(opened.stream, { status: 200, headers: { ...headers, "Content-Length": String(opened.sizeBytes) } });
  }
  if (file.stream) return new Response(file.stream(), { status: 200, headers });
  const bytes = await file.read();
  return new Response(new Uint8Array(bytes.buffer as ArrayBuffer, bytes.byteOffset, bytes.byteLength), {
    status: 200,
    headers: { ...headers, "Content-Length": String(bytes.byteLength) },
  });
}
