import { and, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { inboundEvents, type InboundEvent } from "@/db/schema";
import { neutraliseNul } from "@/lib/db/neutralise-nul";
import { AppError } from "@/lib/errors";
import { log } from "@/lib/log";
import { applyIdentityEvent } from "./apply-identity-event";
import type { IdentityWebhookEvent } from "./clerk-events";

export type ReceiveIdentityEventOptions = { event: IdentityWebhookEvent };

export type ReceiveIdentityEventResult = { duplicate: boolean; status: InboundEvent["status"] };

/**
 * Stores a verified Clerk event in `inbound_events` and applies it, in one transaction.
 *
 * Unlike the other webhooks, identity events are applied synchronously rather than through the job
 * runner: applying one is a few row writes with no outside calls, and a user who just signed up
 * should exist by the time their first API call arrives. Sharing the transaction keeps the
 * "stored before acknowledged" rule of every webhook (docs/integrations.md): a crash rolls back both the row and its
 * effects, the provider gets a 5xx and redelivers.
 *
 * - Duplicate delivery (same `svix-id`): the insert does nothing, nothing is applied again.
 * - A typed domain error (conflicting email, malformed payload) is deterministic, so the event is
 *   kept as `failed` with `last_error` and acknowledged; redelivery could not fix it. The apply runs
 *   in a savepoint so a half-applied event leaves no trace.
 * - Any other error (database down, a unique violation from a concurrent writer) propagates: 5xx,
 *   nothing stored, the provider retries.
 */
export async function receiveIdentityEvent(db: Db, options: ReceiveIdentityEventOptions): Promise<ReceiveIdentityEventResult> {
  // U+0000 cannot be stored; a verified event is acknowledged with U+FFFD in its place.
  const event = neutraliseNul(options.event);
  return db.transaction(async (tx) => {
    const [stored] = await tx
      .insert(inboundEvents)
      .values({ source: "identity", providerEventId: event.id, type: event.type, payload: event.payload })
      .onConflictDoNothing({ target: [inboundEvents.source, inboundEvents.providerEventId] })
      .returning({ id: inboundEvents.id });
    if (!stored) {
      const [existing] = await tx
        .select({ status: inboundEvents.status })
        .from(inboundEvents)
        .where(and(eq(inboundEvents.source, "identity"), eq(inboundEvents.providerEventId, event.id)));
      log.info("identity event duplicate", { svixId: event.id, type: event.type });
      return { duplicate: true, status: existing?.status ?? "received" };
    }

    let status: InboundEvent["status"];
    let lastError: string | null = null;
    try {
      status = await tx.transaction((savepoint) => applyIdentityEvent(savepoint, { event }));
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      status = "failed";
      lastError = error.message;
    }
    await tx
      .update(inboundEvents)
      .set({ status, lastError, processedAt: status === "failed" ? null : new Date() })
      .where(eq(inboundEvents.id, stored.id));
    if (status === "failed") log.warn("identity event failed", { svixId: event.id, type: event.type, error: lastError });
    else log.info("identity event applied", { svixId: event.id, type: event.type, status });
    return { duplicate: false, status };
  });
}
