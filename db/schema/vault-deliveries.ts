import { index, integer, pgTable, text, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { createdAt, idColumn } from "./columns";
import { eSignatures } from "./e-signatures";

/**
 * Every attempt to deliver a `signer_document_signed` event to the vault (docs/integrations.md): the HTTP status
 * it got, or the error (timeout, connection refused). A 2xx row means "delivered": the job checks for
 * one before sending, so a retried job never delivers twice.
 */
export const vaultDeliveries = pgTable(
  "vault_deliveries",
  {
    id: idColumn(),
    eSignatureId: uuid("e_signature_id")
      .notNull()
      .references(() => eSignatures.id, { onDelete: "restrict" }),
    attempt: integer("attempt").notNull(),
    statusCode: integer("status_code"),
    error: text("error"),
    durationMs: integer("duration_ms").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("vault_deliveries_e_signature_attempt_key").on(t.eSignatureId, t.attempt),
    index("vault_deliveries_created_at_idx").on(t.createdAt),
  ],
);

export type VaultDelivery = typeof vaultDeliveries.$inferSelect;
export type NewVaultDelivery = typeof vaultDeliveries.$inferInsert;
