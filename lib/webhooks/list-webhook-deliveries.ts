import { and, asc, desc, eq, gte, inArray, lt, type SQL } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/db/client";
import { webhookAttempts, webhookDeliveries, webhookEvents } from "@/db/schema";
import type { Principal } from "@/lib/auth/principal";
import { cursorBinding, decodeKeyCursor } from "@/lib/pagination/keyset-cursor";
import { toKeysetPage, type KeysetPage } from "@/lib/pagination/keyset-page";
import { iso } from "@/lib/iso";
import { getWebhookEndpointOrThrow } from "./get-webhook-endpoint-or-throw";

export type WebhookDeliveryJson = {
  id: string;
  eventId: string;
  eventType: string;
  status: "pending" | "succeeded" | "failed" | "cancelled";
  nextAttemptAt: string | null;
  createdAt: string;
  attempts: Array<{ attempt: number; statusCode: number | null; error: string | null; durationMs: number; responseBody: string | null; at: string }>;
};

export type ListWebhookDeliveriesOptions = {
  principal: Principal;
  endpointId: string;
  status?: WebhookDeliveryJson["status"];
  eventType?: string;
  since?: Date;
  limit: number;
  cursor?: string;
};

/** The endpoint's delivery log, newest first, each delivery with every attempt; filtered by status, event type and time. */
export async function listWebhookDeliveries(db: Db, options: ListWebhookDeliveriesOptions): Promise<KeysetPage<WebhookDeliveryJson>> {
  const endpoint = await getWebhookEndpointOrThrow(db, { ...options, capability: "settings:read" });
  const binding = cursorBinding("webhook-deliveries", { ...options, since: options.since?.toISOString() });
  const after = decodeKeyCursor(options.cursor, z.uuid(), binding);
  const conditions: SQL[] = [eq(webhookDeliveries.endpointId, endpoint.id)];
  if (options.status) conditions.push(eq(webhookDeliveries.status, options.status));
  if (options.eventType) conditions.push(eq(webhookEvents.type, options.eventType));
  if (options.since) conditions.push(gte(webhookDeliveries.createdAt, options.since));
  if (after) conditions.push(lt(webhookDeliveries.id, after));
  const rows = await db
    .select({ delivery: webhookDeliveries, eventType: webhookEvents.type })
    .from(webhookDeliveries)
    .innerJoin(webhookEvents, eq(webhookEvents.id, webhookDeliveries.eventId))
    .where(and(...conditions))
    .orderBy(desc(webhookDeliveries.id))
    .limit(options.limit + 1);
  const page = toKeysetPage(rows, options.limit, (row) => [row.delivery.id], binding);
  const ids = page.rows.map((row) => row.delivery.id);
  const attempts = ids.length
    ? await db.select().from(webhookAttempts).where(inArray(webhookAttempts.deliveryId, ids)).orderBy(asc(webhookAttempts.attempt))
    : [];
  return {
    nextCursor: page.nextCursor,
    rows: page.rows.map(({ delivery, eventType }) => ({
      id: delivery.id,
      eventId: delivery.eventId,
      eventType,
      status: delivery.status,
      nextAttemptAt: delivery.nextAttemptAt && delivery.status === "pending" ? iso(delivery.nextAttemptAt) : null,
      createdAt: iso(delivery.createdAt),
      attempts: attempts
        .filter((a) => a.deliveryId === delivery.id)
        .map((a) => ({ attempt: a.attempt, statusCode: a.statusCode, error: a.error, durationMs: a.durationMs, responseBody: a.responseBody, at: iso(a.createdAt) })),
    })),
  };
}
