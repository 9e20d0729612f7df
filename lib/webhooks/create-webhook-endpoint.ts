import type { Db } from "@/db/client";
import { webhookEndpoints } from "@/db/schema";
import type { Principal } from "@/lib/auth/principal";
import { uuidv7 } from "@/db/uuidv7";
import { resolveOrganizationId } from "@/lib/auth/resolve-organization-id";
import { encryptWebhookSecret, generateWebhookSecret } from "./secret-crypto";
import { serializeWebhookEndpoint, type WebhookEndpointJson } from "./serialize-webhook-endpoint";
import { validateWebhookUrl } from "./validate-webhook-url";
import type { WebhookEventType } from "./event-types";

export type WebhookEndpointWithSecret = WebhookEndpointJson & { secret: string };

/** Adds an endpoint to the organization (org admins) and returns it with its signing secret, shown this once. */
export async function createWebhookEndpoint(
  db: Db,
  options: { principal: Principal; organizationId?: number; url: string; description?: string; eventTypes?: WebhookEventType[] },
): Promise<WebhookEndpointWithSecret> {
  const organizationId = resolveOrganizationId(options.principal, {
    capability: "settings:write",
    organizationId: options.organizationId,
    forbidden: "You do not have permission to manage webhooks.",
  });
  const url = validateWebhookUrl(options.url);
  const id = uuidv7();
  const secret = generateWebhookSecret();
  const [endpoint] = await db
    .insert(webhookEndpoints)
    .values({
      id,
      organizationId,
      url,
      description: options.description ?? "",
      eventTypes: options.eventTypes ?? [],
      secretCiphertext: encryptWebhookSecret(secret, id),
      createdBy: options.principal.user.id,
    })
    .returning();
  return { ...serializeWebhookEndpoint(endpoint!), secret };
}
