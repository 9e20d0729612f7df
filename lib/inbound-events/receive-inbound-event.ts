import { and, eq } from "drizzle-orm";
import type { z } from "zod";
import type { Db } from "@/db/client";
import { inboundEvents, type InboundEvent } from "@/db/schema";
import { neutraliseNul } from "@/lib/db/neutralise-nul";
import type { JobDefinition } from "@/lib/jobs/define-job";
import { enqueueJob } from "@/lib/jobs/enqueue-job";
import { log } from "@/lib/log";

export type ReceiveInboundEventOptions = {
  source: Exclude<InboundEvent["source"], "identity">;
  /** Unique per event at the provider and stable across redeliveries. */
  providerEventId: string;
  type: string;
  payload: unknown;
  /** The job that processes the event; it receives `{ inboundEventId }`. */
  job: JobDefinition<z.ZodType<{ inboundEventId: string }, { inboundEventId: string }>>;
};

export type ReceiveInboundEventResult = { inboundEventId: string; duplicate: boolean };

/**
 * Verified webhook → durable row → job, in one transaction (stored before acknowledged, docs/integrations.md): the caller answers 2xx
 * only after this resolves, so an acknowledged event is never lost, and any failure (database down)
 * propagates as a 5xx so the provider retries.
 *
 * Strings carrying U+0000 are stored with U+FFFD instead (`neutraliseNul`), never refused.
 *
 * A redelivery (same source and provider event id) stores nothing new. It enqueues again with the
 * same idempotency key, which is a no-op for a job that exists and repairs the case where an earlier
 * enqueue to Inngest failed after the row committed.
 */
export async function receiveInboundEvent(db: Db, options: ReceiveInboundEventOptions): Promise<ReceiveInboundEventResult> {
  const { job } = options;
  const { source, providerEventId, type, payload } = neutraliseNul({
    source: options.source,
    providerEventId: options.providerEventId,
    type: options.type,
    payload: options.payload,
  });
  return db.transaction(async (tx) => {
    const [stored] = await tx
      .insert(inboundEvents)
      .values({ source, providerEventId, type, payload })
      .onConflictDoNothing({ target: [inboundEvents.source, inboundEvents.providerEventId] })
      .returning({ id: inboundEvents.id });
    let inboundEventId = stored?.id;
    if (!inboundEventId) {
      const [existing] = await tx
        .select({ id: inboundEvents.id })
        .from(inboundEvents)
        .where(and(eq(inboundEvents.source, source), eq(inboundEvents.providerEventId, providerEventId)));
      if (!existing) throw new Error(`inbound event ${source}/${providerEventId} conflicted but was not found`);
      inboundEventId = existing.id;
    }
    await enqueueJob(tx, job, { inboundEventId }, { idempotencyKey: inboundEventId });
    log.info(stored ? "inbound event stored" : "inbound event duplicate", { source, providerEventId, type, inboundEventId });
    return { inboundEventId, duplicate: !stored };
  });
}
