import type { Db } from "@/db/client";
import type { Principal } from "@/lib/auth/principal";
import { Conflict } from "@/lib/errors";
import { createDelivery, emitEvent } from "./emit-event";
import { getWebhookEndpointOrThrow } from "./get-webhook-endpoint-or-throw";

/** Sends a `webhook.test` event to this one endpoint (through the same delivery engine and log). */
export async function sendTestWebhookEvent(
  db: Db,
  options: { principal: Principal; endpointId: string },
): Promise<{ eventId: string; deliveryId: string }> {
  const endpoint = await getWebhookEndpointOrThrow(db, { ...options, capability: "settings:write" });
  if (endpoint.status !== "active") throw Conflict(`The endpoint is ${endpoint.status}: resume it before sending a test event.`);
  return db.transaction(async (tx) => {
    const event = await emitEvent(tx, "webhook.test", { endpointId: endpoint.id, organizationId: endpoint.organizationId });
    const deliveryId = await createDelivery(tx, { eventId: event.id, endpointId: endpoint.id });
    return { eventId: event.id, deliveryId };
  });
}
