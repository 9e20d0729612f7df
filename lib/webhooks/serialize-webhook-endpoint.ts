import type { WebhookEndpoint } from "@/db/schema";
import { iso } from "@/lib/iso";
import type { WebhookEventType } from "./event-types";

export type WebhookEndpointJson = {
  id: string;
  organizationId: number;
  url: string;
  description: string;
  eventTypes: WebhookEventType[];
  status: "active" | "paused" | "disabled";
  disabledReason: string | null;
  previousSecretExpiresAt: string | null;
  createdAt: string;
  updatedAt: string;
};

/** An endpoint as its admins see it: never its secrets. */
export function serializeWebhookEndpoint(endpoint: WebhookEndpoint, now: Date = new Date()): WebhookEndpointJson {
  const overlap = endpoint.previousSecretExpiresAt && endpoint.previousSecretExpiresAt > now ? endpoint.previousSecretExpiresAt : null;
  return {
    id: endpoint.id,
    organizationId: endpoint.organizationId,
    url: endpoint.url,
    description: endpoint.description,
    eventTypes: endpoint.eventTypes as WebhookEventType[],
    status: endpoint.status,
    disabledReason: endpoint.disabledReason,
    previousSecretExpiresAt: overlap ? iso(overlap) : null,
    createdAt: iso(endpoint.createdAt),
    updatedAt: iso(endpoint.updatedAt),
  };
}
