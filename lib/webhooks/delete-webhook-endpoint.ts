import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { webhookEndpoints } from "@/db/schema";
import type { Principal } from "@/lib/auth/principal";
import { getWebhookEndpointOrThrow } from "./get-webhook-endpoint-or-throw";

/** Removes an endpoint with its delivery log; deliveries in flight find it gone and stop. */
export async function deleteWebhookEndpoint(db: Db, options: { principal: Principal; endpointId: string }): Promise<void> {
  const endpoint = await getWebhookEndpointOrThrow(db, { ...options, capability: "settings:write" });
  await db.delete(webhookEndpoints).where(eq(webhookEndpoints.id, endpoint.id));
}
