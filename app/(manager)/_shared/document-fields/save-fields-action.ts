import { z } from "zod";
import { ReplacePackageFieldsSchema, ReplaceTemplateFieldsSchema } from "@/lib/api/schemas/fields";
import { replaceFields, type FieldsToReplace } from "@/lib/fields/replace-fields";
import { validatedAction, type ActionContext, type FormState } from "../../../_lib/validated-action";
import { parseFieldsEntry } from "./parse-fields-entry";

const returnTo = (owner: "signings" | "templates", idField: string) => (formData: FormData) =>
  `/${owner}/${encodeURIComponent(String(formData.get(idField) ?? ""))}/fields`;
const Id = z.string().min(1).max(100);

/** Replaces the fields through the same domain function as `/v1` and says how many were saved. */
async function save({ db, principal, evidence }: ActionContext, ref: FieldsToReplace): Promise<FormState> {
  const { length } = await replaceFields(db, { ...ref, principal, ipAddress: evidence.ipAddress });
  return { status: "ok", message: `Saved ${length} ${length === 1 ? "field" : "fields"}.` };
}

/**
 * The field editor's save, per owner: the fields of one document, posted as JSON in `fields` with
 * the owner's id and `documentId`, replace the stored ones through the same domain function and
 * schema as `/v1`. The `"use server"` modules of the two pages export these.
 */
export const savePackageFields = validatedAction(
  ReplacePackageFieldsSchema.extend({ signingId: Id, documentId: Id }),
  ({ signingId, documentId, fields }, context) => save(context, { owner: "package", ownerId: signingId, documentId, fields }),
  { returnTo: returnTo("signings", "signingId"), toInput: parseFieldsEntry },
);

export const saveTemplateFields = validatedAction(
  ReplaceTemplateFieldsSchema.extend({ templateId: Id, documentId: Id }),
  ({ templateId, documentId, fields }, context) => save(context, { owner: "template", ownerId: templateId, documentId, fields }),
  { returnTo: returnTo("templates", "templateId"), toInput: parseFieldsEntry },
);
