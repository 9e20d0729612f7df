import { Webhook } from "svix";
import { getEnv } from "@/lib/env";
import { BadRequest, Unavailable } from "@/lib/errors";
import { log } from "@/lib/log";
import { ClerkEventEnvelopeSchema, type IdentityWebhookEvent } from "./clerk-events";

export type VerifyIdentityWebhookOptions = {
  /** The request body exactly as received: the signature covers these bytes, not re-serialized JSON. */
  rawBody: string;
  headers: Headers;
};

/**
 * Checks Clerk's Svix signature (`svix-id`, `svix-timestamp`, `svix-signature`) against
 * CLERK_WEBHOOK_SIGNING_SECRET. Svix rejects timestamps more than 5 minutes away from now, which
 * bounds replays; a replay inside that window is caught by the unique `svix-id` in `inbound_events`.
 */
export function verifyIdentityWebhook(options: VerifyIdentityWebhookOptions): IdentityWebhookEvent {
  const secret = getEnv().CLERK_WEBHOOK_SIGNING_SECRET;
  if (!secret) throw Unavailable("Identity webhook is not configured.");

  const id = options.headers.get("svix-id");
  const timestamp = options.headers.get("svix-timestamp");
  const signature = options.headers.get("svix-signature");
  if (!id || !timestamp || !signature) throw BadRequest("Missing webhook signature headers.");

  let webhook: Webhook;
  try {
    webhook = new Webhook(secret);
  } catch (error) {
    log.error("identity webhook secret unusable", { reason: error instanceof Error ? error.message : String(error) });
    throw Unavailable("Identity webhook is not configured.");
  }

  let payload: unknown;
  try {
    payload = webhook.verify(options.rawBody, {
      "svix-id": id,
      "svix-timestamp": timestamp,
      "svix-signature": signature,
    });
  } catch (error) {
    // verify() JSON-parses after checking the signature, so a SyntaxError means signed but not JSON.
    if (error instanceof SyntaxError) throw BadRequest("Webhook body is not valid JSON.");
    log.warn("identity webhook rejected", { svixId: id, reason: error instanceof Error ? error.message : String(error) });
    throw BadRequest("Invalid webhook signature.");
  }

  const envelope = ClerkEventEnvelopeSchema.safeParse(payload);
  if (!envelope.success) throw BadRequest("Webhook body is not a Clerk event.");
  return { id, type: envelope.data.type, data: envelope.data.data, payload };
}
