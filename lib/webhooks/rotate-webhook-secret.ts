import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { webhookEndpoints } from "@/db/schema";
import type { Principal } from "@/lib/auth/principal";
import type { WebhookEndpointWithSecret } from "./create-webhook-endpoint";
import { getWebhookEndpointOrThrow } from "./get-webhook-endpoint-or-throw";
import { encryptWebhookSecret, generateWebhookSecret } from "./secret-crypto";
import { serializeWebhookEndpoint } from "./serialize-webhook-endpoint";

/**
 * Gives the endpoint a new signing secret (returned this once). For `overlapHours` the previous one
 * keeps signing too (two signatures in `webhook-signature`), so the receiver can switch without
 * dropping a message; 0 ends the old secret at once.
 */
export async function rotateWebhookSecret(
  db: Db,
  options: { principal: Principal; endpointId: string; overlapHours: number; now?: Date },
): Promise<WebhookEndpointWithSecret> {
  const endpoint = await getWebhookEndpointOrThrow(db, { ...options, capability: "settings:write" });
  const now = options.now ?? new Date();
  const secret = generateWebhookSecret();
  const [updated] = await db
    .update(webhookEndpoints)
    .set({
      secretCiphertext: encryptWebhookSecret(secret, endpoint.id),
      previousSecretCiphertext: options.overlapHours > 0 ? endpoint.secretCiphertext : null,
      previousSecretExpiresAt: options.overlapHours > 0 ? new Date(now.getTime() + options.overlapHours * 3600_000) : null,
      updatedAt: now,
    })
    .where(eq(webhookEndpoints.id, endpoint.id))
    .returning();
  return { ...serializeWebhookEndpoint(updated!, now), secret };
}
