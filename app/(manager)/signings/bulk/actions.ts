"use server";

import { randomUUID } from "node:crypto";
import { z } from "zod";
import { NewPackageSignerSchema } from "@/lib/api/schemas/signers";
import { createSigningsFromCsv, type BulkRowResult } from "@/lib/signings/create-signings-from-csv";
import { planSigningsFromCsv } from "@/lib/signings/plan-signings-from-csv";
import { validatedAction, type FormState } from "../../../_lib/validated-action";

export type BulkReport = {
  kind: "preview" | "result";
  valid: boolean;
  /** Packages created by this submission. */
  sent: number;
  /** Packages of the same batch created by an earlier submission (one cut short, or a double click). */
  alreadySent: number;
  failed: number;
  rows: (Omit<BulkRowResult, "outcome"> & { outcome?: BulkRowResult["outcome"] })[];
  /** The CSV as it was checked, to refill the text area (a chosen file's text included). */
  csv: string;
  /** The batch id the form sends next: the same until the batch is complete, so a resubmission resumes it. */
  batchId: string;
};

export type BulkFormState = FormState<BulkReport>;

const BulkSchema = z.object({
  templateId: z.uuid({ error: "Choose a template." }),
  flowId: z.union([z.uuid({ error: "expected a flow id" }), z.literal("")]).optional(),
  csv: z.string(),
  intent: z.enum(["preview", "send"]).default("preview"),
  /** Minted with the page: identifies this bulk send, so submitting it again never creates a package twice. */
  batchId: z.uuid({ error: "This form is out of date: reload the page and submit again." }),
});

/** The CSV from the chosen file when there is one, else from the text area. */
async function toInput(formData: FormData) {
  const file = formData.get("csvFile");
  const csv = file instanceof File && file.size > 0 ? await file.text() : formData.get("csv");
  return {
    templateId: formData.get("templateId"),
    flowId: formData.get("flowId") ?? undefined,
    csv: typeof csv === "string" ? csv : "",
    intent: formData.get("intent") ?? undefined,
    batchId: formData.get("batchId"),
  };
}

export async function bulkSigningsAction(previous: BulkFormState, formData: FormData): Promise<BulkFormState> {
  // validatedAction's toInput is synchronous: read a chosen file first, then validate the text.
  const input = await toInput(formData);
  const normalized = new FormData();
  for (const [key, value] of Object.entries(input)) if (typeof value === "string") normalized.set(key, value);
  return run(previous, normalized);
}

const run = validatedAction<typeof BulkSchema, BulkReport>(
  BulkSchema,
  async (input, { db, principal, evidence: { ipAddress } }) => {
    const flowId = input.flowId || undefined;
    if (input.intent === "preview") {
      const plan = await planSigningsFromCsv(db, { principal, templateId: input.templateId, csv: input.csv, signerSchema: NewPackageSignerSchema });
      const bad = plan.rows.filter((row) => row.error).length;
      return {
        status: "ok",
        message: plan.valid
          ? `All ${plan.rows.length} rows are ready: ${plan.packages.length} ${plan.packages.length === 1 ? "package" : "packages"} to send.`
          : `${bad} of ${plan.rows.length} rows need fixing; nothing will be created until every row is right.`,
        data: { kind: "preview", valid: plan.valid, sent: 0, alreadySent: 0, failed: 0, rows: plan.rows, csv: input.csv, batchId: input.batchId },
      };
    }
    const result = await createSigningsFromCsv(db, {
      principal,
      templateId: input.templateId,
      flowId,
      csv: input.csv,
      ipAddress,
      signerSchema: NewPackageSignerSchema,
      batchId: input.batchId,
    });
    const bad = result.rows.filter((row) => row.error).length;
    const packages = (n: number) => `${n} ${n === 1 ? "package" : "packages"}`;
    const earlier = result.alreadySent > 0 ? ` ${packages(result.alreadySent)} had been created by an earlier submission of this batch and were not created again.` : "";
    const message = !result.valid
      ? `Nothing was created: ${bad} of ${result.rows.length} rows need fixing.`
      : result.failed > 0
        ? `${result.sent} sent now; ${result.failed} could not be created and were rolled back whole.${earlier}`
        : `${packages(result.sent)} created and sent now.${earlier}`;
    // Once anything went out, the text is cleared. The batch id stays until every package of the batch
    // exists, so submitting again (after a timeout, or to retry a failed one) resumes it; then a new one.
    const csv = result.sent + result.alreadySent > 0 ? "" : input.csv;
    const complete = result.valid && result.failed === 0;
    return { status: "ok", message, data: { kind: "result", ...result, csv, batchId: complete ? randomUUID() : input.batchId } };
  },
  { returnTo: "/signings/bulk" },
);
