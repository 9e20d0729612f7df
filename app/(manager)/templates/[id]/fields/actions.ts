"use server";

import { z } from "zod";
import { ReplaceTemplateFieldsSchema } from "@/lib/api/schemas/fields";
import { replaceTemplateDocumentFields } from "@/lib/fields/replace-template-document-fields";
import { validatedAction, type FormState } from "../../../../_lib/validated-action";
import { parseFieldsEntry } from "../../../signings/[id]/fields/parse-fields-entry";

const SaveTemplateFieldsSchema = ReplaceTemplateFieldsSchema.extend({ templateId: z.string().min(1).max(100), documentId: z.string().min(1).max(100) });

/** Saves the fields of one template document, per role. */
const save = validatedAction(
  SaveTemplateFieldsSchema,
  async (input, { db, principal, evidence }) => {
    const { data } = await replaceTemplateDocumentFields(db, { principal, ...input, ipAddress: evidence.ipAddress });
    return { status: "ok", message: `Saved ${data.length} ${data.length === 1 ? "field" : "fields"}.` };
  },
  { returnTo: (formData) => `/templates/${encodeURIComponent(String(formData.get("templateId") ?? ""))}/fields`, toInput: parseFieldsEntry },
);

export async function saveTemplateFieldsAction(previous: FormState, formData: FormData): Promise<FormState> {
  return save(previous, formData);
}
