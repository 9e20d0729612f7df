"use server";

import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { z } from "zod";
import { prepareDatabase } from "@/lib/boot";
import { getSessionPrincipal } from "@/lib/auth/get-session-principal";
import { AppError } from "@/lib/errors";
import { declineSigning } from "@/lib/signings/decline-signing";
import { requestEvidence } from "../../../_lib/request-evidence";

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
export async function declineSigningAction(signingId: string, _previous: DeclineState, formData: FormData): Promise<DeclineState> {
  const typed = typeof formData.get("reason") === "string" ? String(formData.get("reason")) : "";
  const parsed = DeclineSchema.safeParse({ signingId, reason: formData.get("reason") ?? undefined });
  if (!parsed.success) return { status: "error", message: parsed.error.issues[0]?.message ?? "Check the reason.", reason: typed };
  const path = `/signings/${parsed.data.signingId}`;
  const { db } = await prepareDatabase();
  const principal = await getSessionPrincipal(db);
  if (!principal) redirect(`/sign-in?callbackUrl=${encodeURIComponent(path)}`);
  try {
    await declineSigning(db, { principal, packageId: parsed.data.signingId, reason: parsed.data.reason, ipAddress: (await requestEvidence()).ipAddress });
  } catch (error) {
    if (error instanceof AppError && error.code !== "unauthorized") {
      return { status: "error", message: declineMessage(error), reason: typed };
    }
    throw error;
  }
  revalidatePath(path);
  redirect(path);
}

function declineMessage(error: AppError): string {
  if (error.code === "not_found") return "This package is no longer available to you.";
  if (error.code === "conflict") {
    if (/already signed/.test(error.message)) return "You have already signed this package, so it can no longer be declined.";
    return "This package can no longer be declined: it has been completed, cancelled, declined or has expired. Reload the page to see where it stands.";
  }
  return error.message;
}
