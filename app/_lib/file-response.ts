import { contentDisposition } from "@/lib/api/content-disposition";

/**
 * A stored file as a privately cached response with its SHA-256 as ETag (304 when it matches), inline
 * (viewers, previews) or as an attachment (`?download=1`). `contentType` is what we determined, never
 * what an uploader claimed; PDFs when absent.
 */
export function fileResponse(
  request: Request,
  file: { name: string; content: Uint8Array; sha256: string; contentType?: string },
  disposition: "inline" | "attachment" = "inline",
): Response {
  const etag = `"${file.sha256}"`;
  const headers = { ETag: etag, "Cache-Control": "private, no-cache", "X-Content-Type-Options": "nosniff" };
  const ifNoneMatch = request.headers.get("if-none-match");
  if (ifNoneMatch && ifNoneMatch.split(",").some((tag) => tag.trim().replace(/^W\//, "") === etag)) {
    return new Response(null, { status: 304, headers });
  }
  return new Response(Buffer.from(file.content), {
    status: 200,
    headers: {
      ...headers,
      "Content-Type": file.contentType || "application/pdf",
      "Content-Disposition": contentDisposition(disposition, file.name),
      "Content-Length": String(file.content.byteLength),
    },
  });
}
