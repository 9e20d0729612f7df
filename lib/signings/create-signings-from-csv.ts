import type { Db } from "@/db/client";
import { AppError } from "@/lib/errors";
import { planSigningsFromCsv, type PlannedRow } from "./plan-signings-from-csv";
import { saveSigningDraft } from "./save-signing-draft";

export type BulkRowResult = PlannedRow & { outcome: "sent" | "failed" | "not_created"; packageId?: string; title?: string };

export type BulkResult = { valid: boolean; sent: number; failed: number; rows: BulkRowResult[] };

/**
 * Bulk send from a template and a CSV of signers. Every row is checked first
 * (`planSigningsFromCsv`); if any row is wrong nothing is created and the report says which rows to
 * fix, so correcting the file and running it again cannot send anyone a second package. Otherwise each
 * package is created and sent in its own transaction (`saveSigningDraft` with `send`): a package that
 * still fails (e.g. the template has no documents) is rolled back whole and reported, the others go out.
 */
export async function createSigningsFromCsv(
  db: Db,
  options: Parameters<typeof planSigningsFromCsv>[1] & { flowId?: string; ipAddress?: string | null },
): Promise<BulkResult> {
  const plan = await planSigningsFromCsv(db, options);
  if (!plan.valid) {
    return { valid: false, sent: 0, failed: 0, rows: plan.rows.map((row) => ({ ...row, outcome: "not_created" as const })) };
  }
  const outcome = new Map<number, Pick<BulkRowResult, "outcome" | "packageId" | "title" | "error">>();
  let sent = 0;
  let failed = 0;
  for (const pkg of plan.packages) {
    try {
      const signing = await saveSigningDraft(db, {
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
      sent++;
      for (const line of pkg.lines) outcome.set(line, { outcome: "sent", packageId: signing.id, title: signing.title });
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      failed++;
      for (const line of pkg.lines) outcome.set(line, { outcome: "failed", error: error.message, title: pkg.title });
    }
  }
  return {
    valid: true,
    sent,
    failed,
    rows: plan.rows.map((row) => ({ ...row, ...(outcome.get(row.line) ?? { outcome: "not_created" as const }) })),
  };
}
