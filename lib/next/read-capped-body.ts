import { AppError } from "@/lib/errors";

export const payloadTooLarge = (maxBytes: number) => new AppError("payload_too_large", `Request body exceeds ${maxBytes} bytes.`);

/**
 * Reads a request body as raw bytes, refusing (413) anything larger than `maxBytes` before it streams
 * in (a declared `Content-Length`) or while it does (chunked or lying senders): the stream is cancelled
 * at the first chunk past the cap, so an unauthenticated sender cannot make the server buffer more.
 * Webhook signatures cover these exact bytes: callers decode them once and never re-serialize.
 */
export async function readCappedBody(request: Request, maxBytes: number): Promise<Uint8Array> {
  if (Number(request.headers.get("content-length") ?? 0) > maxBytes) throw payloadTooLarge(maxBytes);
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => {});
      throw payloadTooLarge(maxBytes);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}
