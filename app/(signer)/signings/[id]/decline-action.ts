"use server";

import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { z } from "zod";
import { AppError } from "@/lib/errors";
import { isLocale } from "@/lib/i18n/locales";
import { borrowerTranslator } from "@/lib/i18n/translator";
import { declineSigning } from "@/lib/signings/decline-signing";
import { contextAction } from "../../../_lib/validated-action";

export type DeclineState = { status: "idle" } | { status: "error"; message: string; reason: string };

type DeclineWords = ReturnType<typeof borrowerTranslator<"decline">>;

/** The same limits as `POST /v1/signing/signer/signings/{id}/decline`, with sentences for people in their language. */
function declineSchema(t: DeclineWords) {
  return z.object({
    signingId: z.string().max(100),
    reason: z.string({ error: t("errorReason") }).trim().min(1, t("errorReason")).max(1000, t("errorTooLong")),
  });
}

/**
 * Declines the package (`declineSigning`) and shows its declined screen. Errors come back as form
 * state with the reason as typed, so nothing is lost.
 */
export async function declineSigningAction(signingId: string, previous: DeclineState, formData: FormData): Promise<DeclineState> {
  const path = `/signings/${encodeURIComponent(signingId)}`;
  const decline = contextAction<DeclineState>(
    async ({ db, principal, fields, evidence }) => {
      // The dialog posts the page's language; its answers are in it.
      const posted = fields.text("locale");
      const t = borrowerTranslator(isLocale(posted) ? posted : "en", "decline");
      const typed = fields.text("reason") ?? "";
      const parsed = declineSchema(t).safeParse({ signingId, reason: fields.text("reason") });
      if (!parsed.success) return { status: "error", message: parsed.error.issues[0]?.message ?? t("errorCheck"), reason: typed };
      try {
        await declineSigning(db, { principal, packageId: parsed.data.signingId, reason: parsed.data.reason, ipAddress: evidence.ipAddress });
      } catch (error) {
        if (error instanceof AppError && error.code !== "unauthorized") return { status: "error", message: declineMessage(error, t), reason: typed };
        throw error;
      }
      revalidatePath(path);
      redirect(path);
    },
    { returnTo: path, signerOf: () => signingId },
  );
  return decline(previous, formData);
}

function declineMessage(error: AppError, t: DeclineWords): string {
  if (error.code === "not_found") return t("errorGone");
  if (error.reason === "already_signed") return t("errorSigned");
  if (error.code === "conflict") return t("errorClosed");
  return error.message;
}
