import { and, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { bulkSendItems } from "@/db/schema";
import { AppError } from "@/lib/errors";
import { planSigningsFromCsv, type PlannedRow } from "./plan-signings-from-csv";
import { saveSigningDraft } from "./save-signing-draft";

/** `already_sent`: created by an earlier submission of the same batch (the form's batch id). */
export type BulkRowResult = PlannedRow & { outcome: "sent" | "already_sent" | "failed" | "not_created"; packageId?: string; title?: string };

/** `sent`: packages created by this submission; `alreadySent`: by earlier submissions of the batch. */
export type BulkResult = { valid: boolean; sent: number; alreadySent: number; failed: number; rows: BulkRowResult[] };

const ALREADY_SENT = Symbol("already sent");

/**
 * Bulk send from a template and a CSV of signers. Every row is checked first
 * (`planSigningsFromCsv`); if any row is wrong nothing is created and the report says which rows to
 * fix, so correcting the file and running it again cannot send anyone a second package. Otherwise each
 * package is created and sent in its own transaction (`saveSigningDraft` with `send`): a package that
 * still fails (e.g. the template has no documents) is rolled back whole and reported, the others go out.
 *
 * Resumable and idempotent: the form mints a `batchId`, and each package claims its key (the CSV's
 * package key: the `package` cell, else `row <line>`) in `bulk_send_items` in the transaction that
 * creates it. Submitting the same batch again (after a timeout halfway, a double click, a retry)
 * skips every package already created and creates the rest; concurrent submissions wait on the
 * claim, so none is created twice. A package that failed is not claimed: a resubmission tries it again.
 */
export async function createSigningsFromCsv(
  db: Db,
  options: Parameters<typeof planSigningsFromCsv>[1] & { flowId?: string; ipAddress?: string | null; batchId: string },
): Promise<BulkResult> {
  const plan = await planSigningsFromCsv(db, options);
  if (!plan.valid) {
    return { valid: false, sent: 0, alreadySent: 0, failed: 0, rows: plan.rows.map((row) => ({ ...row, outcome: "not_created" as const })) };
  }
  const organizationId = plan.template.organizationId;
  const outcome = new Map<number, Pick<BulkRowResult, "outcome" | "packageId" | "title" | "error">>();
  let sent = 0;
  let alreadySent = 0;
  let failed = 0;
  for (const pkg of plan.packages) {
    const item = and(eq(bulkSendItems.organizationId, organizationId), eq(bulkSendItems.batchId, options.batchId), eq(bulkSendItems.packageKey, pkg.key));
    try {
      const signing = await db.transaction(async (tx) => {
        // The claim: a second submission of this batch waits here for the first, then finds the row.
        const [claimed] = await tx
          .insert(bulkSendItems)
          .values({ organizationId, batchId: options.batchId, packageKey: pkg.key })
          .onConflictDoNothing()
          .returning({ packageKey: bulkSendItems.packageKey });
        if (!claimed) throw ALREADY_SENT;
        const created = await saveSigningDraft(tx, {
          principal: options.principal,
          ipAddress: options.ipAddress,
          locationId: pkg.location.id,
          title: pkg.title,
          templateId: plan.template.id,
          flowId: options.flowId,
          signers: pkg.signers,
          templateDocumentModes: pkg.documentModes,
          send: true,
        });
        await tx.update(bulkSendItems).set({ packageId: created.id }).where(item);
        return created;
      });
      sent++;
      for (const line of pkg.lines) outcome.set(line, { outcome: "sent", packageId: signing.id, title: signing.title });
    } catch (error) {
      if (error === ALREADY_SENT) {
        const [earlier] = await db.select({ packageId: bulkSendItems.packageId }).from(bulkSendItems).where(item);
        alreadySent++;
        for (const line of pkg.lines) outcome.set(line, { outcome: "already_sent", packageId: earlier?.packageId ?? undefined, title: pkg.title });
        continue;
      }
      if (!(error instanceof AppError)) throw error;
      failed++;
      for (const line of pkg.lines) outcome.set(line, { outcome: "failed", error: error.message, title: pkg.title });
    }
  }
  return {
    valid: true,
    sent,
    alreadySent,
    failed,
    rows: plan.rows.map((row) => ({ ...row, ...(outcome.get(row.line) ?? { outcome: "not_created" as const }) })),
  };
}
