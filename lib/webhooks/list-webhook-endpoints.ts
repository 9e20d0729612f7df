import { asc, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { webhookEndpoints } from "@/db/schema";
import type { Principal } from "@/lib/auth/principal";
import { resolveOrganizationId } from "@/lib/auth/resolve-organization-id";
import { serializeWebhookEndpoint, type WebhookEndpointJson } from "./serialize-webhook-endpoint";

/** The organization's webhook endpoints, oldest first (an organization has a handful). */
export async function listWebhookEndpoints(db: Db, options: { principal: Principal; organizationId?: number }): Promise<WebhookEndpointJson[]> {
  const organizationId = resolveOrganizationId(options.principal, {
    capability: "settings:read",
    organizationId: options.organizationId,
    forbidden: "You do not have permission to manage webhooks.",
  });
  const rows = await db.select().from(webhookEndpoints).where(eq(webhookEndpoints.organizationId, organizationId)).orderBy(asc(webhookEndpoints.createdAt));
  return rows.map((row) => serializeWebhookEndpoint(row));
}
