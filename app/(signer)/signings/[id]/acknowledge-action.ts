"use server";

import { revalidatePath } from "next/cache";
import { acknowledgeDocument } from "@/lib/closings/acknowledge-document";
import { AppError } from "@/lib/errors";
import { contextAction, type FormState } from "../../../_lib/validated-action";

/** "I have read it": the signer acknowledges a review-only document (`acknowledgeDocument`). */
export const acknowledgeAction = contextAction<FormState>(
  async ({ db, principal, formData, evidence }) => {
    const signingId = String(formData.get("signingId") ?? "");
    try {
      const { document, signing } = await acknowledgeDocument(db, { principal, packageId: signingId, documentId: String(formData.get("documentId") ?? ""), ipAddress: evidence.ipAddress });
      revalidatePath(`/signings/${signingId}`);
      revalidatePath(`/signings/${signingId}/done`);
      return { status: "ok", message: signing.status === "completed" ? `You confirmed you received ${document.name}. The package is complete.` : `You confirmed you received ${document.name}.` };
    } catch (error) {
      if (error instanceof AppError && error.code !== "unauthorized") return { status: "error", message: error.message, fieldErrors: {}, values: {} };
      throw error;
    }
  },
  { returnTo: (formData) => `/signings/${String(formData.get("signingId") ?? "")}`, signerOf: (formData) => String(formData.get("signingId") ?? "") },
);
