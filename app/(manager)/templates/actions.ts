"use server";

import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { z } from "zod";
import type { FormFields } from "@/app/_lib/form-fields";
import { validatedAction, type FormState } from "@/app/_lib/validated-action";
import { CreateTemplateSchema, SetTemplateDocumentModeSchema, UpdateTemplateSchema } from "@/lib/api/schemas/templates";
import { ExecutionModeSchema } from "@/lib/api/schemas/closings";
import { executionModeLabel } from "@/lib/closings/execution-mode-options";
import { addTemplateDocument } from "@/lib/templates/add-template-document";
import { createTemplate } from "@/lib/templates/create-template";
import { deleteTemplateDocument } from "@/lib/templates/delete-template-document";
import { setTemplateDocumentExecutionMode } from "@/lib/templates/set-template-document-execution-mode";
import { DocumentTransferableSchema } from "@/lib/api/schemas/transferable-records";
import { setTemplateDocumentTransferable } from "@/lib/transferable-records/set-template-document-transferable";
import { updateTemplate } from "@/lib/templates/update-template";
import { roleInput, roleRowsFrom } from "./template-input";

// The templates console's writes: the /v1 schemas parse the form, the /v1 domain functions act.

/** Name, description (empty means none), the signers' method of proof and the roles rows of a template form, as the API's request body. */
const templateFields = (formData: FormData, fields: FormFields) => {
  const description = fields.text("description");
  const method = fields.text("signerAuthMethod");
  return {
    name: fields.text("name"),
    description: description === undefined || description.trim() === "" ? null : description,
    ...(method ? { signerAuthMethod: method } : {}),
    roles: roleRowsFrom(formData.entries()).map(roleInput),
  };
};

const templatePath = (id: string) => `/templates/${encodeURIComponent(id)}`;

const createTemplateForm = validatedAction(
  CreateTemplateSchema,
  async (input, { db, principal, evidence: { ipAddress } }) => {
    const template = await createTemplate(db, { principal, ...input, ipAddress });
    revalidatePath("/templates");
    redirect(templatePath(template.id));
  },
  {
    returnTo: "/templates",
    toInput: (formData, fields) => ({ organizationId: fields.int("organizationId") ?? "", ...templateFields(formData, fields) }),
  },
);

export async function createTemplateAction(previous: FormState, formData: FormData): Promise<FormState> {
  return createTemplateForm(previous, formData);
}

export async function updateTemplateAction(templateId: string, previous: FormState, formData: FormData): Promise<FormState> {
  return validatedAction(
    UpdateTemplateSchema,
    async (input, { db, principal, evidence: { ipAddress } }) => {
      await updateTemplate(db, { principal, templateId, ...input, ipAddress });
      revalidatePath("/templates", "layout");
      return { status: "ok", message: "Template saved." };
    },
    { returnTo: templatePath(templateId), toInput: templateFields },
  )(previous, formData);
}

/**
 * A template's new document: a verified direct upload (`uploadId`, what the form sends once the
 * browser has put the file in storage) or, before the page hydrates, the file itself (small files).
 */
const UploadSchema = z
  .object({
    uploadId: z.uuid({ error: "The upload id is not valid: choose the file again." }).optional(),
    name: z.string().max(200).optional(),
    file: z.instanceof(File, { error: "Choose a PDF file to upload." }).optional(),
    executionMode: ExecutionModeSchema.optional(),
  })
  .refine((input) => input.uploadId !== undefined || (input.file !== undefined && (input.file.size > 0 || input.file.name !== "")), {
    error: "Choose a PDF file to upload.",
    path: ["file"],
  });

export async function uploadTemplateDocumentAction(templateId: string, previous: FormState, formData: FormData): Promise<FormState> {
  return validatedAction(
    UploadSchema,
    async (input, { db, principal, evidence: { ipAddress } }) => {
      const source = input.uploadId
        ? { uploadId: input.uploadId, name: input.name }
        : { bytes: new Uint8Array(await input.file!.arrayBuffer()), name: input.file!.name || "Document.pdf" };
      const document = await addTemplateDocument(db, { principal, templateId, ...source, executionMode: input.executionMode, ipAddress });
      revalidatePath(templatePath(templateId));
      return { status: "ok", message: `Added ${document.name}.` };
    },
    {
      returnTo: templatePath(templateId),
      toInput: (formData, fields) => {
        const executionMode = formData.get("executionMode") ?? undefined;
        const uploadId = fields.text("uploadId");
        return uploadId ? { uploadId, name: fields.text("name"), executionMode } : { file: formData.get("file") ?? undefined, executionMode };
      },
    },
  )(previous, formData);
}

export async function removeTemplateDocumentAction(templateId: string, documentId: string, previous: FormState, formData: FormData): Promise<FormState> {
  return validatedAction(
    z.object({}),
    async (_input, { db, principal, evidence: { ipAddress } }) => {
      await deleteTemplateDocument(db, { principal, templateId, documentId, ipAddress });
      revalidatePath(templatePath(templateId));
      redirect(templatePath(templateId));
    },
    { returnTo: templatePath(templateId), toInput: () => ({}) },
  )(previous, formData);
}

/** "Save" beside a template document: the same schema and `setTemplateDocumentExecutionMode` as PATCH /v1/…/templates/{id}/documents/{docId}. */
export async function setTemplateDocumentModeAction(templateId: string, documentId: string, previous: FormState, formData: FormData): Promise<FormState> {
  return validatedAction(
    SetTemplateDocumentModeSchema,
    async ({ executionMode }, { db, principal, evidence: { ipAddress } }) => {
      const document = await setTemplateDocumentExecutionMode(db, { principal, templateId, documentId, executionMode, ipAddress });
      revalidatePath(templatePath(templateId));
      return { status: "ok", message: `${document.name}: ${executionModeLabel(document.executionMode)}.` };
    },
    { returnTo: templatePath(templateId), toInput: (formData) => ({ executionMode: formData.get("executionMode") }) },
  )(previous, formData);
}

/** The "Transferable record" checkbox beside a template document: the same schema and function as PUT /v1/…/templates/{id}/documents/{docId}/transferable. */
export async function setTemplateDocumentTransferableAction(templateId: string, documentId: string, previous: FormState, formData: FormData): Promise<FormState> {
  return validatedAction(
    DocumentTransferableSchema,
    async ({ transferable }, { db, principal, evidence: { ipAddress } }) => {
      await setTemplateDocumentTransferable(db, { principal, templateId, documentId, transferable, ipAddress });
      revalidatePath(templatePath(templateId));
      return { status: "ok", message: transferable ? "New packages start with it marked as a transferable record." : "No longer a transferable record in new packages." };
    },
    { returnTo: templatePath(templateId), toInput: (formData) => ({ transferable: formData.get("transferable") === "on" }) },
  )(previous, formData);
}
