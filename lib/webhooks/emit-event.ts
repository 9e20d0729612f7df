import { and, eq, or, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { webhookDeliveries, webhookEndpoints, webhookEvents, type WebhookEvent } from "@/db/schema";
import { enqueueJob, enqueueJobs } from "@/lib/jobs/enqueue-job";
import { uuidv7 } from "@/db/uuidv7";
import { deliverWebhookDeclaration } from "./deliver-webhook-payload";
import { WEBHOOK_EVENT_SCHEMAS, type WebhookEventData, type WebhookEventType } from "./event-types";

/**
 * Records one event for the organization named in `data` and a delivery (with its job) for each of
 * its active endpoints subscribed to the type. Call it with the transaction that makes the change:
 * the event, its deliveries and their jobs commit or roll back with it (outbox), and the jobs leave
 * after commit. Costs one insert and one indexed select when nobody subscribes, and two multi-row
 * inserts more (deliveries, jobs) whatever the number of endpoints: recording a signature is not
 * slowed by each subscription (bench/webhook-fanout.ts).
 */
export async function emitEvent<T extends WebhookEventType>(tx: Db, type: T, data: WebhookEventData<T>): Promise<WebhookEvent> {
  const parsed = WEBHOOK_EVENT_SCHEMAS[type].parse(data) as { organizationId: number };
  const [event] = await tx.insert(webhookEvents).values({ organizationId: parsed.organizationId, type, data: parsed }).returning();
  const endpoints = await tx
    .select({ id: webhookEndpoints.id })
    .from(webhookEndpoints)
    .where(
      and(
        eq(webhookEndpoints.organizationId, parsed.organizationId),
        eq(webhookEndpoints.status, "active"),
        type === "webhook.test" ? sql`false` : or(sql`cardinality(${webhookEndpoints.eventTypes}) = 0`, sql`${type} = any(${webhookEndpoints.eventTypes})`),
      ),
    );
  if (endpoints.length === 0) return event!;
  const now = new Date();
  const deliveries = endpoints.map((endpoint) => ({ id: uuidv7(), eventId: event!.id, endpointId: endpoint.id, nextAttemptAt: now }));
  await tx.insert(webhookDeliveries).values(deliveries);
  await enqueueJobs(
    tx,
    deliverWebhookDeclaration,
    deliveries.map((d) => ({ payload: { deliveryId: d.id, attempt: 1 }, options: { idempotencyKey: `${d.id}:1` } })),
  );
  return event!;
}

/** A delivery of an event to one endpoint, with the job of its first attempt. */
export async function createDelivery(tx: Db, options: { eventId: string; endpointId: string }): Promise<string> {
  const [delivery] = await tx
    .insert(webhookDeliveries)
    .values({ eventId: options.eventId, endpointId: options.endpointId, nextAttemptAt: new Date() })
    .returning({ id: webhookDeliveries.id });
  await enqueueJob(tx, deliverWebhookDeclaration, { deliveryId: delivery!.id, attempt: 1 }, { idempotencyKey: `${delivery!.id}:1` });
  return delivery!.id;
}
