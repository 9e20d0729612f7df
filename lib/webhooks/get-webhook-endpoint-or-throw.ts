import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { webhookEndpoints, type WebhookEndpoint } from "@/db/schema";
import { canAccess, requireCapability, type Principal } from "@/lib/auth/principal";
import { NotFound } from "@/lib/errors";
import { isUuid } from "@/lib/ids";

/**
 * An endpoint the caller administers (`settings:read` to look, `settings:write` to change): one of
 * another organization is 404 like a missing one, so its existence is not revealed.
 */
export async function getWebhookEndpointOrThrow(
  db: Db,
  options: { principal: Principal; endpointId: string; capability: "settings:read" | "settings:write" },
): Promise<WebhookEndpoint> {
  requireCapability(options.principal, options.capability, "You do not have permission to manage webhooks.");
  const notFound = NotFound(`Webhook endpoint ${options.endpointId} not found.`);
  if (!isUuid(options.endpointId)) throw notFound;
  const [endpoint] = await db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, options.endpointId));
  if (!endpoint || !canAccess(options.principal, options.capability, { organizationId: endpoint.organizationId })) throw notFound;
  return endpoint;
}
