import type { Context } from "hono";
import { BadRequest } from "@/lib/errors";

const FORM_ERROR = "Upload the PDF as the request body with Content-Type: application/pdf, or as the `file` field of a multipart/form-data form.";

/**
 * Reads an upload's bytes and name from a raw `application/pdf` body (name from `?name=`) or from
 * the `file` field of a multipart form. Whether the bytes are a PDF is the domain's check.
 */
export async function readPdfUpload(c: Context, nameFromQuery?: string): Promise<{ bytes: Uint8Array; name: string }> {
  const mediaType = (c.req.header("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  if (mediaType === "application/pdf") {
    return { bytes: new Uint8Array(await c.req.arrayBuffer()), name: nameFromQuery ?? "Document.pdf" };
  }
  if (mediaType === "multipart/form-data") {
    let form: Record<string, unknown>;
    try {
      form = await c.req.parseBody();
    } catch {
      throw BadRequest(`The multipart form could not be read. ${FORM_ERROR}`);
    }
    const file = form.file;
    if (!(file instanceof File)) throw BadRequest(`Missing the \`file\` field. ${FORM_ERROR}`);
    const name = typeof form.name === "string" && form.name.trim() ? form.name : file.name || nameFromQuery || "Document.pdf";
    return { bytes: new Uint8Array(await file.arrayBuffer()), name };
  }
  throw BadRequest(FORM_ERROR);
}
