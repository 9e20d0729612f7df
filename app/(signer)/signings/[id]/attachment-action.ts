"use server";

import { revalidatePath } from "next/cache";
import { addSignerAttachment } from "@/lib/attachments/add-signer-attachment";
import { AppError } from "@/lib/errors";
import { isLocale } from "@/lib/i18n/locales";
import { borrowerTranslator } from "@/lib/i18n/translator";
import { contextAction, type FormState } from "../../../_lib/validated-action";

/**
 * The signer's "Send" of one requested attachment: the same `addSignerAttachment` as POST
 * /v1/signing/signer/signings/{id}/attachments/{requestId}/files (its checks and messages), as the
 * signer of the page (link session or account). Once the page has hydrated the file went straight to
 * storage (`attachment-upload-actions.ts`) and only its `uploadId` is posted, which must be this
 * signer's own upload; before, the file itself is posted (the page's body cap fits the 20 MiB limit).
 */
export async function addAttachmentAction(signingId: string, requestId: string, previous: FormState, formData: FormData): Promise<FormState> {
  const path = `/signings/${encodeURIComponent(signingId)}`;
  const send = contextAction<FormState>(
    async ({ db, principal, formData: form, evidence }) => {
      const posted = String(form.get("locale") ?? "");
      const t = borrowerTranslator(isLocale(posted) ? posted : "en", "attachments");
      const uploadId = form.get("uploadId");
      // The photo input and the file input share the name: the one that holds a file.
      const file = form.getAll("file").find((f): f is File => f instanceof File && f.size > 0);
      if (typeof uploadId !== "string" && !file) return { status: "error", message: t("chooseFirst"), fieldErrors: { file: t("chooseFirst") }, values: {} };
      try {
        await addSignerAttachment(db, {
          principal,
          packageId: signingId,
          requestId,
          file: typeof uploadId === "string" ? { uploadId } : { bytes: new Uint8Array(await file!.arrayBuffer()), name: file!.name || "Attachment" },
          ipAddress: evidence.ipAddress,
        });
      } catch (error) {
        if (error instanceof AppError && error.code !== "unauthorized") return { status: "error", message: error.message, fieldErrors: { file: error.message }, values: {} };
        throw error;
      }
      revalidatePath(path);
      revalidatePath(`${path}/done`);
      return { status: "ok", message: t("sent") };
    },
    { returnTo: path, signerOf: () => signingId },
  );
  return send(previous, formData);
}
