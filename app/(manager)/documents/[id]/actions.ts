"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { formDataToObject, validatedAction } from "@/app/_lib/validated-action";
import { CreateCommentSchema } from "@/lib/api/schemas/comments";
import { UploadDocumentFileSchema } from "@/lib/api/schemas/documents";
import { CreateOutreachMessageSchema } from "@/lib/api/schemas/outreach";
import { CHATTEL_FILE_TYPES } from "@/lib/chattel-documents/sniff-file-type";
import { uploadDocumentFile } from "@/lib/chattel-documents/upload-document-file";
import { createComment } from "@/lib/comments/create-comment";
import { createOutreachMessage } from "@/lib/outreach/create-outreach-message";
import { previewOutreachMessage } from "@/lib/outreach/preview-outreach-message";
import { readUploadedFile } from "@/lib/uploads/read-uploaded-file";

// Every action names its document in a hidden `documentId` field, checked as a UUID like the /v1 path
// parameter before any domain function sees it; the domain function then checks scope and capability.
const DocumentId = z.object({ documentId: z.uuid("This document does not exist.") });
const documentPath = (formData: FormData) => {
  const id = formData.get("documentId");
  return typeof id === "string" && z.uuid().safeParse(id).success ? `/documents/${id}` : "/documents";
};

/** Optional text fields left empty in a form are absent from the /v1 body. */
function withoutEmpty(formData: FormData): Record<string, string | string[]> {
  return Object.fromEntries(Object.entries(formDataToObject(formData)).filter(([, v]) => v !== ""));
}

/** The file itself (before hydration, small files), or its direct upload's id (the hydrated form). */
const UploadFileForm = DocumentId.extend({
  file: UploadDocumentFileSchema.shape.file.optional(),
  uploadId: z.uuid("This upload does not exist; choose the file again.").optional(),
}).refine((d) => d.file !== undefined || d.uploadId !== undefined, { error: "Choose a file to upload.", path: ["file"] });

export const uploadFileAction = validatedAction(
  UploadFileForm,
  async ({ documentId, file, uploadId }, { db, principal, evidence: { ipAddress } }) => {
    const picked = uploadId
      ? await readUploadedFile(db, { principal, uploadId, accept: CHATTEL_FILE_TYPES })
      : { name: file!.name, bytes: new Uint8Array(await file!.arrayBuffer()) };
    const stored = await uploadDocumentFile(db, {
      principal,
      documentId,
      fileName: picked.name,
      bytes: picked.bytes,
      ipAddress,
    });
    revalidatePath(`/documents/${documentId}`);
    return { status: "ok", message: `Uploaded ${stored.fileName}.` };
  },
  {
    returnTo: documentPath,
    toInput: (formData) => {
      const file = formData.get("file");
      // A file input left empty still posts a nameless empty file.
      const uploadId = formData.get("uploadId");
      return {
        documentId: formData.get("documentId"),
        file: file instanceof File && (file.size > 0 || file.name) ? file : undefined,
        uploadId: typeof uploadId === "string" && uploadId !== "" ? uploadId : undefined,
      };
    },
  },
);

export const createCommentAction = validatedAction(
  CreateCommentSchema.extend(DocumentId.shape),
  async ({ documentId, ...comment }, { db, principal }) => {
    await createComment(db, { principal, documentId, ...comment });
    revalidatePath(`/documents/${documentId}`);
    return { status: "ok", message: comment.parentId ? "Reply posted." : "Comment posted." };
  },
  { returnTo: documentPath, toInput: withoutEmpty },
);

/** The recipient select carries `kind|email`; the /v1 body has them as two fields. */
function toOutreachInput(formData: FormData): Record<string, unknown> {
  const { recipient, documentId, ...rest } = withoutEmpty(formData);
  const [recipientKind, recipientEmail] = typeof recipient === "string" ? recipient.split("|", 2) : [];
  return { documentId, draft: { ...rest, recipientKind, ...(recipientEmail ? { recipientEmail } : {}) } };
}

// The /v1 body is a strict object: the document id travels beside it, not inside it.
const OutreachForm = DocumentId.extend({ draft: CreateOutreachMessageSchema });

export const previewOutreachAction = validatedAction(
  OutreachForm,
  async ({ documentId, draft }, { db, principal, formData }) => {
    const preview = await previewOutreachMessage(db, { principal, documentId, ...draft });
    const to = preview.recipient.name ? `${preview.recipient.name} <${preview.recipient.email}>` : preview.recipient.email;
    // The draft comes back too: a preview posted without JavaScript re-renders the form with it.
    const values = Object.fromEntries([...formData.entries()].filter((e): e is [string, string] => typeof e[1] === "string" && !e[0].startsWith("$ACTION")));
    return { status: "ok", data: { to, subject: preview.subject, body: preview.body, values } };
  },
  { returnTo: documentPath, toInput: toOutreachInput },
);

export const sendOutreachAction = validatedAction(
  OutreachForm,
  async ({ documentId, draft }, { db, principal }) => {
    const message = await createOutreachMessage(db, { principal, documentId, ...draft });
    revalidatePath(`/documents/${documentId}`);
    return { status: "ok", message: `Message to ${message.recipientEmail} queued.` };
  },
  { returnTo: documentPath, toInput: toOutreachInput },
);
