import { and, asc, eq, gte, inArray, ne } from "drizzle-orm";
import type { Db } from "@/db/client";
import { webhookEvents } from "@/db/schema";
import type { Principal } from "@/lib/auth/principal";
import { Conflict, NotFound } from "@/lib/errors";
import { isUuid } from "@/lib/ids";
import { createDelivery } from "./emit-event";
import { getWebhookEndpointOrThrow } from "./get-webhook-endpoint-or-throw";

export const MAX_REPLAY_EVENTS = 1_000;

/**
 * Sends events to an endpoint again, as new deliveries with the same `webhook-id` (so a receiver
 * that already has one can drop it): one event of its organization, or every event of the types it
 * receives since a time (oldest first, at most MAX_REPLAY_EVENTS; `truncated` says there were more).
 */
export async function replayWebhookEvents(
  db: Db,
  options: { principal: Principal; endpointId: string } & ({ eventId: string } | { since: Date }),
): Promise<{ replayed: number; truncated: boolean }> {
  const endpoint = await getWebhookEndpointOrThrow(db, { ...options, capability: "settings:write" });
  if (endpoint.status !== "active") throw Conflict(`The endpoint is ${endpoint.status}: resume it before replaying events.`);
  const sameOrganization = eq(webhookEvents.organizationId, endpoint.organizationId);
  let events: Array<{ id: string }>;
  let truncated = false;
  if ("eventId" in options) {
    events = isUuid(options.eventId)
      ? await db.select({ id: webhookEvents.id }).from(webhookEvents).where(and(sameOrganization, eq(webhookEvents.id, options.eventId)))
      : [];
    if (events.length === 0) throw NotFound(`Event ${options.eventId} not found.`);
  } else {
    const types = endpoint.eventTypes.length > 0 ? inArray(webhookEvents.type, endpoint.eventTypes) : ne(webhookEvents.type, "webhook.test");
    events = await db
      .select({ id: webhookEvents.id })
      .from(webhookEvents)
      .where(and(sameOrganization, gte(webhookEvents.createdAt, options.since), types))
      .orderBy(asc(webhookEvents.createdAt), asc(webhookEvents.id))
      .limit(MAX_REPLAY_EVENTS + 1);
    truncated = events.length > MAX_REPLAY_EVENTS;
    events = events.slice(0, MAX_REPLAY_EVENTS);
  }
  await db.transaction(async (tx) => {
    for (const event of events) await createDelivery(tx, { eventId: event.id, endpointId: endpoint.id });
  });
  return { replayed: events.length, truncated };
}
