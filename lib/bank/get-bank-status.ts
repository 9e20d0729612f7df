import { desc } from "drizzle-orm";
import type { Db } from "@/db/client";
import { bankItems, type BankItem } from "@/db/schema";
import { iso } from "@/lib/iso";
import { bankOwnerWhere, type BankOwner } from "./bank-owner";

export type GetBankStatusOptions = { owner: BankOwner };

export type BankItemStatus = {
  item_id: string;
  institution_id: string | null;
  institution_name: string | null;
  /** healthy, login_required, pending_expiration, pending_disconnect, revoked or error */
  health: BankItem["health"];
  /** The user must go through Link again (update mode) to keep the connection working. */
  needs_attention: boolean;
  last_webhook_code: string | null;
  last_webhook_at: string | null;
  linked_at: string;
};

export type BankStatus = { connected: boolean; item: BankItemStatus | null; items: BankItemStatus[] };

/**
 * The bank link of its owner (the signed-in user, or the signer of a signer session: only what that signer linked). `connected` is true while at least one item is not revoked;
 * `item` is the newest one that is not revoked (else the newest), `items` all of them, newest first.
 */
export async function getBankStatus(db: Db, options: GetBankStatusOptions): Promise<BankStatus> {
  const rows = await db.select().from(bankItems).where(bankOwnerWhere(options.owner)).orderBy(desc(bankItems.createdAt));
  const items = rows.map(
    (row): BankItemStatus => ({
      item_id: row.itemId,
      institution_id: row.institutionId,
      institution_name: row.institutionName,
      health: row.health,
      needs_attention: row.health !== "healthy",
      last_webhook_code: row.lastWebhookCode,
      last_webhook_at: iso(row.lastWebhookAt),
      linked_at: row.createdAt.toISOString(),
    }),
  );
  const current = items.find((i) => i.health !== "revoked");
  return { connected: current !== undefined, item: current ?? items[0] ?? null, items };
}
