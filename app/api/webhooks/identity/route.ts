// POST /api/webhooks/identity – Clerk user events (Svix-signed): verify, store, apply, acknowledge.
import { prepareDatabase } from "@/lib/boot";
import { AppError, errorJsonResponse } from "@/lib/errors";
import { receiveIdentityEvent } from "@/lib/identity/receive-identity-event";
import { verifyIdentityWebhook } from "@/lib/identity/verify-identity-webhook";

export const dynamic = "force-dynamic";

/** Clerk user events are a few kilobytes; the cap keeps an unauthenticated sender from making us buffer more. */
const MAX_BODY_BYTES = 1024 * 1024;

export async function POST(request: Request): Promise<Response> {
  try {
    if (Number(request.headers.get("content-length") ?? 0) > MAX_BODY_BYTES) throw tooLarge();
    // The signature covers the exact bytes sent, so the body is read as text and never re-serialized.
    const rawBody = await request.text();
    if (Buffer.byteLength(rawBody) > MAX_BODY_BYTES) throw tooLarge();
    const event = verifyIdentityWebhook({ rawBody, headers: request.headers });
    const { db } = await prepareDatabase();
    const { duplicate } = await receiveIdentityEvent(db, { event });
    return Response.json(duplicate ? { received: true, duplicate: true } : { received: true });
  } catch (error) {
    return errorJsonResponse(error);
  }
}

function tooLarge(): AppError {
  return new AppError("payload_too_large", `Request body exceeds ${MAX_BODY_BYTES} bytes.`);
}
