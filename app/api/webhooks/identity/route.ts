// POST /api/webhooks/identity – Clerk user events (Svix-signed): verify, store, apply, acknowledge.
import { prepareDatabase } from "@/lib/boot";
import { receiveIdentityEvent } from "@/lib/identity/receive-identity-event";
import { verifyIdentityWebhook } from "@/lib/identity/verify-identity-webhook";
import { routeHandler } from "@/lib/next/route-handler";

export const dynamic = "force-dynamic";

// Clerk user events are a few kilobytes (a user with many email addresses and metadata stays far below 1 MiB).
export const POST = routeHandler({ maxBodyBytes: 1024 * 1024 }, async ({ request, rawBody }) => {
  // The signature covers the exact bytes sent, so the body is decoded once and never re-serialized.
  const event = verifyIdentityWebhook({ rawBody: Buffer.from(rawBody).toString("utf8"), headers: request.headers });
  const { db } = await prepareDatabase();
  const { duplicate } = await receiveIdentityEvent(db, { event });
  return Response.json(duplicate ? { received: true, duplicate: true } : { received: true });
});
