import { AppError } from "@/lib/errors";

/**
 * Reads a webhook body as raw bytes, refusing (413) anything larger than `maxBytes` before or while it
 * streams in, so an unauthenticated sender cannot make the server buffer an arbitrary amount.
 * Signatures cover these exact bytes: callers decode them once and never re-serialize.
 */
export async function readWebhookBody(request: Request, maxBytes: number): Promise<Uint8Array> {
  const tooLarge = () => new AppError("payload_too_large", `Request body exceeds ${maxBytes} bytes.`);
  if (Number(request.headers.get("content-length") ?? 0) > maxBytes) throw tooLarge();
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
      throw tooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}
