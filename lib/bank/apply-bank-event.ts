import { and, eq, isNull, lte, or } from "drizzle-orm";
import type { Db } from "@/db/client";
import { bankItems, type BankItem, type InboundEvent } from "@/db/schema";
import { processInboundEvent, type InboundEventOutcome } from "@/lib/inbound-events/process-inbound-event";
import { log } from "@/lib/log";

export type ApplyBankEventOptions = { inboundEventId: string };

type Health = BankItem["health"];

/**
 * Item health after a Plaid webhook; undefined keeps the current health (informational codes such as
 * NEW_ACCOUNTS_AVAILABLE or the TRANSACTIONS updates, which only a working item receives).
 */
function healthAfter(webhookType: string, webhookCode: string, errorCode: string | undefined): Health | undefined {
  if (webhookType !== "ITEM") return undefined;
  switch (webhookCode) {
    case "ERROR":
      return errorCode === "ITEM_LOGIN_REQUIRED" ? "login_required" : "error";
    case "PENDING_EXPIRATION":
      return "pending_expiration";
    case "PENDING_DISCONNECT":
      return "pending_disconnect";
    case "USER_PERMISSION_REVOKED":
      return "revoked";
    case "LOGIN_REPAIRED":
      return "healthy";
    default:
      return undefined;
  }
}

/**
 * Applies a stored Plaid webhook to its bank item: `last_webhook_code`/`last_webhook_at` and, for the
 * ITEM codes that say so, `health`. Webhooks are ordered by the time they were received: one received
 * before the item's last applied webhook is recorded (`ignored`) without changing it. A webhook for an
 * item we do not store (never persisted, or removed) is recorded as `ignored`. Runs in processInboundEvent
 * (one transaction with the event status).
 */
export async function applyBankEvent(db: Db, options: ApplyBankEventOptions): Promise<"processed" | "ignored" | "failed" | "already-done"> {
  return processInboundEvent(db, { inboundEventId: options.inboundEventId, source: "bank", apply: applyToItem });
}

async function applyToItem(tx: Db, stored: InboundEvent): Promise<InboundEventOutcome> {
  const payload = stored.payload as { webhook_type?: string; webhook_code?: string; item_id?: string; error?: { error_code?: string } | null };
  if (!payload.item_id || !payload.webhook_type || !payload.webhook_code) return { status: "ignored", lastError: "No item_id in the webhook." };

  const health = healthAfter(payload.webhook_type, payload.webhook_code, payload.error?.error_code);
  const updated = await tx
    .update(bankItems)
    .set({
      lastWebhookCode: `${payload.webhook_type}.${payload.webhook_code}`,
      lastWebhookAt: stored.receivedAt,
      ...(health ? { health } : {}),
    })
    .where(and(eq(bankItems.itemId, payload.item_id), or(isNull(bankItems.lastWebhookAt), lte(bankItems.lastWebhookAt, stored.receivedAt))))
    .returning({ id: bankItems.id });
  if (updated.length === 0) {
    const [item] = await tx.select({ id: bankItems.id }).from(bankItems).where(eq(bankItems.itemId, payload.item_id));
    return { status: "ignored", lastError: item ? "Superseded by a newer webhook for this item." : "No stored bank item with this item_id." };
  }
  log.info("bank webhook applied", { itemId: payload.item_id, code: `${payload.webhook_type}.${payload.webhook_code}`, health });
  return { status: "processed" };
}
