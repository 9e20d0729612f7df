import { and, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { inboundEvents, type InboundEvent } from "@/db/schema";

export type InboundEventOutcome = {
  status: "processed" | "ignored" | "failed";
  organizationId?: number | null;
  lastError?: string | null;
};

export type ProcessInboundEventOptions = {
  inboundEventId: string;
  source: InboundEvent["source"];
  /** Applies the event inside the transaction; throw to roll back and let the job retry. */
  apply: (tx: Db, event: InboundEvent) => Promise<InboundEventOutcome>;
};

/**
 * The frame of every webhook job: in one transaction, lock the stored event, skip it when an earlier
 * attempt already finished it, apply it, and record the outcome on the row. Effects and outcome
 * commit together, so a job retried after a crash never applies an event twice.
 */
export async function processInboundEvent(db: Db, options: ProcessInboundEventOptions): Promise<InboundEventOutcome["status"] | "already-done"> {
  return db.transaction(async (tx) => {
    const [event] = await tx
      .select()
      .from(inboundEvents)
      .where(and(eq(inboundEvents.id, options.inboundEventId), eq(inboundEvents.source, options.source)))
      .for("update");
    if (!event) throw new Error(`${options.source} event ${options.inboundEventId} not found`);
    if (event.status !== "received") return "already-done";
    const outcome = await options.apply(tx, event);
    await tx
      .update(inboundEvents)
      .set({
        status: outcome.status,
        processedAt: new Date(),
        lastError: outcome.lastError ?? null,
        organizationId: outcome.organizationId ?? null,
      })
      .where(eq(inboundEvents.id, event.id));
    return outcome.status;
  });
}
