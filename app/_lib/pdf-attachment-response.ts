import { contentDisposition } from "@/lib/api/content-disposition";

/** A generated PDF (the table packet) as a private, uncached download under its file name. */
export function pdfAttachmentResponse(file: { content: Uint8Array; filename: string }): Response {
  return new Response(Buffer.from(file.content), {
    headers: {
      "Content-Type": "application/pdf",
      "Content-Disposition": contentDisposition("attachment", file.filename),
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
