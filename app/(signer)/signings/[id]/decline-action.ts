"use server";

import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { z } from "zod";
import { AppError } from "@/lib/errors";
import { declineSigning } from "@/lib/signings/decline-signing";
import { contextAction } from "../../../_lib/validated-action";

export type DeclineState = { status: "idle" } | { status: "error"; message: string; reason: string };

/** The same limits as `POST /v1/signing/signer/signings/{id}/decline`, with sentences for people. */
const DeclineSchema = z.object({
  signingId: z.string().max(100),
  reason: z
    .string({ error: "Tell the lender why you are declining." })
    .trim()
    .min(1, "Tell the lender why you are declining.")
    .max(1000, "Keep the reason to 1,000 characters or fewer."),
});

/**
 * Declines the package (`declineSigning`) and shows its declined screen. Errors come back as form
 * state with the reason as typed, so nothing is lost.
 */
export async function declineSigningAction(signingId: string, previous: DeclineState, formData: FormData): Promise<DeclineState> {
  const path = `/signings/${encodeURIComponent(signingId)}`;
  const decline = contextAction<DeclineState>(
    async ({ db, principal, fields, evidence }) => {
      const typed = fields.text("reason") ?? "";
      const parsed = DeclineSchema.safeParse({ signingId, reason: fields.text("reason") });
      if (!parsed.success) return { status: "error", message: parsed.error.issues[0]?.message ?? "Check the reason.", reason: typed };
      try {
        await declineSigning(db, { principal, packageId: parsed.data.signingId, reason: parsed.data.reason, ipAddress: evidence.ipAddress });
      } catch (error) {
        if (error instanceof AppError && error.code !== "unauthorized") return { status: "error", message: declineMessage(error), reason: typed };
        throw error;
      }
      revalidatePath(path);
      redirect(path);
    },
    { returnTo: path },
  );
  return decline(previous, formData);
}

function declineMessage(error: AppError): string {
  if (error.code === "not_found") return "This package is no longer available to you.";
  if (error.reason === "already_signed") return "You have already signed this package, so it can no longer be declined.";
  if (error.code === "conflict") {
    return "This package can no longer be declined: it has been completed, cancelled, declined or has expired. Reload the page to see where it stands.";
  }
  return error.message;
}
