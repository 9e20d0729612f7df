import { z } from "zod";
import { ReplacePackageFieldsSchema, ReplaceTemplateFieldsSchema } from "@/lib/api/schemas/fields";
import { replaceDocumentFields } from "@/lib/fields/replace-document-fields";
import { replaceTemplateDocumentFields } from "@/lib/fields/replace-template-document-fields";
import { validatedAction, type FormState } from "../../../_lib/validated-action";
import { parseFieldsEntry } from "./parse-fields-entry";

const saved = (count: number): FormState => ({ status: "ok", message: `Saved ${count} ${count === 1 ? "field" : "fields"}.` });
const returnTo = (owner: "signings" | "templates", idField: string) => (formData: FormData) =>
  `/${owner}/${encodeURIComponent(String(formData.get(idField) ?? ""))}/fields`;
const Id = z.string().min(1).max(100);

/**
 * The field editor's save, per owner: the fields of one document, posted as JSON in `fields` with
 * the owner's id and `documentId`, replace the stored ones through the same domain function and
 * schema as `/v1`. The `"use server"` modules of the two pages export these.
 */
export const savePackageFields = validatedAction(
  ReplacePackageFieldsSchema.extend({ signingId: Id, documentId: Id }),
  async (input, { db, principal, evidence }) => {
    const rows = await replaceDocumentFields(db, { principal, packageId: input.signingId, documentId: input.documentId, fields: input.fields, ipAddress: evidence.ipAddress });
    return saved(rows.length);
  },
  { returnTo: returnTo("signings", "signingId"), toInput: parseFieldsEntry },
);

export const saveTemplateFields = validatedAction(
  ReplaceTemplateFieldsSchema.extend({ templateId: Id, documentId: Id }),
  async (input, { db, principal, evidence }) => {
    const rows = await replaceTemplateDocumentFields(db, { principal, ...input, ipAddress: evidence.ipAddress });
    return saved(rows.length);
  },
  { returnTo: returnTo("templates", "templateId"), toInput: parseFieldsEntry },
);
