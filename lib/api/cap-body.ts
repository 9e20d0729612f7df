import type { MiddlewareHandler } from "hono";
import type { AppError } from "@/lib/errors";

/**
 * The `/v1` body cap: a declared Content-Length over `maxBytes` is refused before anything is read;
 * a body of unknown length (chunked) is read up to the cap and refused at the first byte past it.
 * A request without a body passes untouched.
 *
 * Hono's own `bodyLimit` re-creates a chunked or undeclared body's request with
 * `new Request(c.req.raw, …)`, which needs the request to be an instance of the global Request. The
 * request `@hono/node-server` hands over is its own lightweight object, and where the global Request
 * is not replaced by that adapter's (any process that shares its globals with other code) that call
 * threw: every DELETE, or POST without a body, sent without Content-Length (curl's way) answered 500.
 * Here a buffered body becomes a new Request built from the URL, method and headers, which any
 * request-like object has.
 */
export function capBody(maxBytes: number, tooLarge: () => AppError): MiddlewareHandler {
  return async (c, next) => {
    const raw = c.req.raw;
    const body = raw.body;
    if (!body) return next();
    const declared = raw.headers.get("content-length");
    if (declared !== null && !raw.headers.has("transfer-encoding")) {
      if (Number(declared) > maxBytes) throw tooLarge();
      return next();
    }
    const reader = body.getReader();
    const chunks: Uint8Array[] = [];
    let size = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) {
        await reader.cancel().catch(() => {});
        throw tooLarge();
      }
      chunks.push(value);
    }
    c.req.raw = new Request(c.req.url, { method: raw.method, headers: raw.headers, body: Buffer.concat(chunks), signal: raw.signal });
    return next();
  };
}
