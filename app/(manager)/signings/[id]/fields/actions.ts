"use server";

import { z } from "zod";
import { ReplacePackageFieldsSchema } from "@/lib/api/schemas/fields";
import { replaceDocumentFields } from "@/lib/fields/replace-document-fields";
import { validatedAction, type FormState } from "../../../../_lib/validated-action";
import { parseFieldsEntry } from "./parse-fields-entry";

const SaveSigningFieldsSchema = ReplacePackageFieldsSchema.extend({ signingId: z.string().min(1).max(100), documentId: z.string().min(1).max(100) });

/** Saves the fields of one document of a draft package (the editor posts them as JSON in `fields`). */
const save = validatedAction(
  SaveSigningFieldsSchema,
  async (input, { db, principal, evidence }) => {
    const { data } = await replaceDocumentFields(db, { principal, packageId: input.signingId, documentId: input.documentId, fields: input.fields, ipAddress: evidence.ipAddress });
    return { status: "ok", message: `Saved ${data.length} ${data.length === 1 ? "field" : "fields"}.` };
  },
  { returnTo: (formData) => `/signings/${encodeURIComponent(String(formData.get("signingId") ?? ""))}/fields`, toInput: parseFieldsEntry },
);

export async function saveSigningFieldsAction(previous: FormState, formData: FormData): Promise<FormState> {
  return save(previous, formData);
}
