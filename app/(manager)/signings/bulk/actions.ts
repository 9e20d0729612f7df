"use server";

import { z } from "zod";
import { NewPackageSignerSchema } from "@/lib/api/schemas/signers";
import { createSigningsFromCsv, type BulkRowResult } from "@/lib/signings/create-signings-from-csv";
import { planSigningsFromCsv } from "@/lib/signings/plan-signings-from-csv";
import { validatedAction, type FormState } from "../../../_lib/validated-action";

export type BulkReport = {
  kind: "preview" | "result";
  valid: boolean;
  sent: number;
  failed: number;
  rows: (Omit<BulkRowResult, "outcome"> & { outcome?: BulkRowResult["outcome"] })[];
  /** The CSV as it was checked, to refill the text area (a chosen file's text included). */
  csv: string;
};

export type BulkFormState = FormState<BulkReport>;

const BulkSchema = z.object({
  templateId: z.uuid({ error: "Choose a template." }),
  flowId: z.union([z.uuid({ error: "expected a flow id" }), z.literal("")]).optional(),
  csv: z.string(),
  intent: z.enum(["preview", "send"]).default("preview"),
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
        data: { kind: "preview", valid: plan.valid, sent: 0, failed: 0, rows: plan.rows, csv: input.csv },
      };
    }
    const result = await createSigningsFromCsv(db, {
      principal,
      templateId: input.templateId,
      flowId,
      csv: input.csv,
      ipAddress,
      signerSchema: NewPackageSignerSchema,
    });
    const bad = result.rows.filter((row) => row.error).length;
    const message = !result.valid
      ? `Nothing was created: ${bad} of ${result.rows.length} rows need fixing.`
      : result.failed > 0
        ? `${result.sent} sent; ${result.failed} could not be created and were rolled back whole.`
        : `${result.sent} ${result.sent === 1 ? "package" : "packages"} created and sent.`;
    // Once anything went out, the text is cleared so pressing the button again cannot send the same rows twice.
    const csv = result.sent > 0 ? "" : input.csv;
    return { status: "ok", message, data: { kind: "result", ...result, csv } };
  },
  { returnTo: "/signings/bulk" },
);
