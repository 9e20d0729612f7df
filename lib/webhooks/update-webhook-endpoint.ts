import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { webhookEndpoints } from "@/db/schema";
import type { Principal } from "@/lib/auth/principal";
import type { WebhookEventType } from "./event-types";
import { getWebhookEndpointOrThrow } from "./get-webhook-endpoint-or-throw";
import { serializeWebhookEndpoint, type WebhookEndpointJson } from "./serialize-webhook-endpoint";
import { validateWebhookUrl } from "./validate-webhook-url";

export type WebhookEndpointChange = { url?: string; description?: string; eventTypes?: WebhookEventType[]; status?: "active" | "paused" };

/**
 * Edits, pauses or resumes an endpoint. Resuming a disabled endpoint clears its reason and its
 * failure streak; what it missed meanwhile is replayed on request, not automatically.
 */
export async function updateWebhookEndpoint(
  db: Db,
  options: { principal: Principal; endpointId: string; change: WebhookEndpointChange },
): Promise<WebhookEndpointJson> {
  const endpoint = await getWebhookEndpointOrThrow(db, { ...options, capability: "settings:write" });
  const { change } = options;
  const [updated] = await db
    .update(webhookEndpoints)
    .set({
      ...(change.url !== undefined ? { url: validateWebhookUrl(change.url) } : {}),
      ...(change.description !== undefined ? { description: change.description } : {}),
      ...(change.eventTypes !== undefined ? { eventTypes: change.eventTypes } : {}),
      ...(change.status !== undefined && change.status !== endpoint.status ? { status: change.status, disabledReason: null, failingSince: null } : {}),
      updatedAt: new Date(),
    })
    .where(eq(webhookEndpoints.id, endpoint.id))
    .returning();
  return serializeWebhookEndpoint(updated!);
}
