import { earlyBodyCapFor } from "@/lib/net/early-body-guard.mjs";
import { EARLY_BODY_CAPS } from "./early-body-caps.mjs";

/**
 * For proxy.ts: the answer to a page or server-action request whose body Next would fail on with a
 * 500, or null to let it through.
 * - 413 when the body is over its path's cap (`EARLY_BODY_CAPS`). A declared length over the cap is
 *   refused before Next reads anything (lib/net/early-body-guard.mjs); a body streamed without a
 *   length is cut there just past the cap, and reaches this check one chunk over it.
 * - 400 when a server action's multipart body does not parse (no boundary, a truncated part, a part
 *   without its headers): Next's action handler would throw while parsing it, before our action runs.
 * Only requests with a body are read; what is read is the copy Next keeps for the page anyway.
 */
export async function refuseBadPageBody(request: Request, pathname: string): Promise<Response | null> {
  if (request.method === "GET" || request.method === "HEAD" || request.body === null) return null;
  const cap = earlyBodyCapFor(EARLY_BODY_CAPS, request.method, pathname);
  const declared = request.headers.get("content-length");
  if (cap !== undefined && declared === null) {
    const length = (await request.clone().arrayBuffer()).byteLength;
    if (length > cap) return Response.json({ error: `Request body exceeds ${cap} bytes.` }, { status: 413, headers: { "cache-control": "no-store", connection: "close" } });
  }
  const type = request.headers.get("content-type") ?? "";
  if (request.headers.has("next-action") && /^multipart\/form-data\b/i.test(type)) {
    try {
      await request.clone().formData();
    } catch {
      return Response.json({ error: "The form's body is not valid multipart/form-data." }, { status: 400, headers: { "cache-control": "no-store" } });
    }
  }
  return null;
}
