import type { Context } from "hono";
import type { ApiEnv } from "./context";

/** A stored document's bytes as a `/v1` answer: inline, its SHA-256 as ETag, never cached by shared caches. */
export function documentFileBody(c: Context<ApiEnv>, file: { name: string; contentType: string; content: Uint8Array; sha256: string }) {
  return c.body(file.content as Uint8Array<ArrayBuffer>, 200, {
    "Content-Type": file.contentType,
    "Content-Disposition": `inline; filename*=UTF-8''${encodeURIComponent(file.name)}`,
    ETag: `"${file.sha256}"`,
    "Cache-Control": "private, no-store",
  });
}
