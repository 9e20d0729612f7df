import { and, eq, ne } from "drizzle-orm";
import { ZodError } from "zod";
import type { Db } from "@/db/client";
import { billingRecords, organizations, type BillingFieldVersions, type BillingRecord, type InboundEvent } from "@/db/schema";
import { processInboundEvent, type InboundEventOutcome } from "@/lib/inbound-events/process-inbound-event";
import { log } from "@/lib/log";
import { emitEvent } from "@/lib/webhooks/emit-event";
import { readBillingChange, type BillingFields } from "./read-billing-change";
import { StripeEventEnvelopeSchema } from "./stripe-events";

export type ApplyPaymentEventOptions = { inboundEventId: string };

export type ApplyPaymentEventResult = "processed" | "ignored" | "failed" | "already-done";

/** Thrown while the organization cannot be found yet (e.g. an invoice before its checkout): the job retries. */
class OrganizationNotFoundYet extends Error {
  override name = "OrganizationNotFoundYet";
}

/**
 * Applies one stored payment event to its organization's billing record, in one transaction that
 * also marks the event done, so a retry after a crash applies it at most once.
 *
 * Order: each billing field remembers the order key (`created`, type rank, event id) of the event
 * that set it, and an event only writes the fields no newer event has written. An event older than
 * everything it speaks about is recorded as `ignored` ("superseded") and moves nothing; any delivery
 * order therefore converges on the state of in-order delivery. The billing row is locked
 * (`FOR UPDATE`) so two workers on one organization apply one after the other.
 */
export async function applyPaymentEvent(db: Db, options: ApplyPaymentEventOptions): Promise<ApplyPaymentEventResult> {
  return processInboundEvent(db, { inboundEventId: options.inboundEventId, source: "payments", apply: applyToBilling });
}

async function applyToBilling(tx: Db, stored: InboundEvent): Promise<InboundEventOutcome> {
  let event;
  let change;
  try {
    event = StripeEventEnvelopeSchema.parse(stored.payload);
    change = readBillingChange(event);
  } catch (error) {
    if (!(error instanceof ZodError)) throw error;
    log.warn("payment event unreadable", { eventId: stored.providerEventId, type: stored.type });
    return { status: "failed", lastError: `Unreadable ${stored.type} payload: ${error.issues[0]?.message ?? "invalid"}` };
  }
  if (!change) return { status: "ignored" };

  const organizationId = await findOrganization(tx, change);
  if (organizationId === null) {
    throw new OrganizationNotFoundYet(
      `No organization for ${event.type} ${event.id} yet (customer ${change.customerId ?? "none"}); retrying later.`,
    );
  }

  await tx.insert(billingRecords).values({ organizationId }).onConflictDoNothing({ target: billingRecords.organizationId });
  const [record] = await tx.select().from(billingRecords).where(eq(billingRecords.organizationId, organizationId)).for("update");
  if (!record) throw new Error(`billing record for organization ${organizationId} vanished`);

  const patch: Partial<BillingRecord> = {};
  if (change.customerId && record.stripeCustomerId !== change.customerId && (record.stripeCustomerId === null || change.linksCustomer)) {
    const [holder] = await tx
      .select({ organizationId: billingRecords.organizationId })
      .from(billingRecords)
      .where(and(eq(billingRecords.stripeCustomerId, change.customerId), ne(billingRecords.organizationId, organizationId)));
    if (holder) {
      return {
        status: "failed",
        organizationId,
        lastError: `Customer ${change.customerId} is already linked to organization ${holder.organizationId}.`,
      };
    }
    patch.stripeCustomerId = change.customerId;
  }

  const versions: BillingFieldVersions = { ...record.fieldVersions };
  let moved = false;
  for (const [field, value] of Object.entries(change.fields) as [keyof BillingFields, unknown][]) {
    if ((versions[field] ?? "") >= change.orderKey) continue;
    versions[field] = change.orderKey;
    (patch as Record<string, unknown>)[field] = value;
    moved = true;
  }
  if (moved) patch.fieldVersions = versions;
  const createdAt = new Date(event.created * 1000);
  if (moved && (!record.lastEventCreatedAt || record.lastEventCreatedAt.getTime() <= createdAt.getTime())) {
    patch.lastEventCreatedAt = createdAt;
    patch.lastEventId = event.id;
  }
  if (Object.keys(patch).length > 0) {
    await tx.update(billingRecords).set(patch).where(eq(billingRecords.organizationId, organizationId));
  }
  const status = patch.status ?? record.status;
  const planTier = patch.planTier ?? record.planTier;
  if (status !== record.status || planTier !== record.planTier) {
    // In the transaction that moves the record: the organization's endpoints hear of it exactly when it happens.
    await emitEvent(tx, "billing.status_changed", { organizationId, status, planTier, previousStatus: record.status, previousPlanTier: record.planTier });
  }

  log.info(moved ? "payment event applied" : "payment event superseded", { eventId: event.id, type: event.type, organizationId });
  return moved || patch.stripeCustomerId
    ? { status: "processed", organizationId }
    : { status: "ignored", organizationId, lastError: "Superseded by a newer event; recorded without changing the billing record." };
}

/** The organization the event names (if it exists), else the one linked to the event's customer. */
async function findOrganization(db: Db, change: { organizationId: number | null; customerId: string | null }): Promise<number | null> {
  if (change.organizationId !== null) {
    const [org] = await db.select({ id: organizations.id }).from(organizations).where(eq(organizations.id, change.organizationId));
    if (org) return org.id;
  }
  if (!change.customerId) return null;
  const [linked] = await db
    .select({ organizationId: billingRecords.organizationId })
    .from(billingRecords)
    .where(eq(billingRecords.stripeCustomerId, change.customerId));
  return linked?.organizationId ?? null;
}

