import type { z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { BadRequest, InvalidJson } from "@/lib/errors";
import type { PdfSource } from "@/lib/uploads/uploaded-pdf-document";
import { AttachUploadSchema } from "./schemas/package-documents";
import { describeIssues } from "./validation";

/** What an upload route accepts: the media types of a raw body, how its messages name the file, and the name when none is given. */
export type UploadKind = { what: string; mediaTypes: readonly string[]; defaultName: string };

/** A package or template document. */
export const PDF_UPLOAD: UploadKind = { what: "the PDF", mediaTypes: ["application/pdf"], defaultName: "Document.pdf" };
/** A chattel document's file: multipart only (or a direct upload by id). */
export const CHATTEL_FILE_UPLOAD: UploadKind = { what: "the file", mediaTypes: [], defaultName: "file" };
/** An organization's logo. */
export const LOGO_UPLOAD: UploadKind = { what: "the logo", mediaTypes: ["image/png", "image/jpeg"], defaultName: "logo" };

/**
 * Reads an upload's bytes and name from a raw body of one of the kind's media types (name from
 * `?name=`) or from the `file` field of a multipart form (name from its `name` field, else the
 * file's). Anything else is a 400 that says both ways. Whether the bytes really are what they claim,
 * and their size, are the domain's checks (the `/v1` body limit caps what is read at all).
 */
export async function readUpload(c: Context, kind: UploadKind, nameFromQuery?: string): Promise<{ bytes: Uint8Array; name: string }> {
  const formError =
    kind.mediaTypes.length > 0
      ? `Upload ${kind.what} as the request body with Content-Type: ${kind.mediaTypes.join(" or ")}, or as the \`file\` field of a multipart/form-data form.`
      : `Upload ${kind.what} as the \`file\` field of a multipart/form-data form, or name a direct upload: application/json { "uploadId": … }.`;
  const mediaType = (c.req.header("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  if (kind.mediaTypes.includes(mediaType)) {
    return { bytes: new Uint8Array(await c.req.arrayBuffer()), name: nameFromQuery ?? kind.defaultName };
  }
  if (mediaType === "multipart/form-data") {
    let form: Record<string, unknown>;
    try {
      form = await c.req.parseBody();
    } catch {
      throw BadRequest(`The multipart form could not be read. ${formError}`);
    }
    const file = form.file;
    if (!(file instanceof File)) throw BadRequest(`Missing the \`file\` field. ${formError}`);
    const name = typeof form.name === "string" && form.name.trim() ? form.name : file.name || nameFromQuery || kind.defaultName;
    return { bytes: new Uint8Array(await file.arrayBuffer()), name };
  }
  throw BadRequest(formError);
}

/**
 * A document's PDF from a request: `application/json` naming a direct upload (`{ uploadId, name? }`),
 * else the bytes inline as `readUpload` reads them (small files).
 */
export async function readPdfSource(c: Context, nameFromQuery?: string): Promise<PdfSource> {
  const ref = await readUploadRef(c, AttachUploadSchema);
  if (!ref) return readUpload(c, PDF_UPLOAD, nameFromQuery);
  return { uploadId: ref.uploadId, name: ref.name ?? nameFromQuery };
}

const isJsonBody = (c: Context) => (c.req.header("content-type") ?? "").split(";")[0]!.trim().toLowerCase() === "application/json";

/**
 * An `application/json` body naming direct uploads (`POST /v1/uploads`), parsed with `schema`; undefined
 * for any other media type (the route then reads the bytes inline). Invalid JSON or fields are a 400.
 */
export async function readUploadRef<T extends z.ZodType>(c: Context, schema: T): Promise<z.infer<T> | undefined> {
  if (!isJsonBody(c)) return undefined;
  let json: unknown;
  try {
    json = await c.req.json();
  } catch {
    throw InvalidJson();
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw BadRequest(`Invalid request body. ${describeIssues(parsed.error)}`);
  return parsed.data;
}

