"use server";

import { redirect } from "next/navigation";
import { getSessionPrincipal } from "@/lib/sign-in/get-session-principal";
import { prepareDatabase } from "@/lib/boot";
import { AppError } from "@/lib/errors";
import { effectiveAuthMethod } from "@/lib/signer-access/effective-auth-method";
import { sendSignerCode } from "@/lib/signer-access/send-signer-code";
import { passSignerProofWithAccount, verifySignerProof } from "@/lib/signer-access/verify-signer-proof";
import { requestEvidence } from "../../../../_lib/request-evidence";
import { currentLinkSession } from "@/lib/next/link-sessions";
import { proofPath, type ProofNotice } from "./proof-notices";

function packageIdOf(formData: FormData): string {
  const value = formData.get("packageId");
  return typeof value === "string" ? value.slice(0, 64) : "";
}

/** Runs one proof step; an AppError comes back to the page as a notice in the address (never the code). */
async function proofStep(formData: FormData, step: (context: NonNullable<Awaited<ReturnType<typeof currentLinkSession<"signer">>>>) => Promise<ProofNotice | null>) {
  const packageId = packageIdOf(formData);
  const { db } = await prepareDatabase();
  const context = await currentLinkSession(db, "signer", packageId);
  if (!context) redirect(proofPath(packageId));
  let notice: ProofNotice | null;
  try {
    notice = await step(context);
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    notice = error.status === 429 ? (error.message.startsWith("A code was sent") ? "wait" : "locked") : error.status === 503 ? "sms_off" : error.status === 403 ? "account_mismatch" : "wrong";
    if (error.message.startsWith("That code has expired")) notice = "expired";
  }
  redirect(notice ? proofPath(packageId, notice) : `/signings/${packageId}`);
}

/** The code form (email, text message or access code). */
export async function submitProofCodeAction(formData: FormData): Promise<void> {
  const code = formData.get("code");
  await proofStep(formData, async (context) => {
    const { db } = await prepareDatabase();
    await verifySignerProof(db, { context, code: typeof code === "string" ? code : "", ...(await requestEvidence()) });
    return null;
  });
}

/** "Send me a new code" / "Text me a code". */
export async function sendProofCodeAction(formData: FormData): Promise<void> {
  await proofStep(formData, async (context) => {
    const { db } = await prepareDatabase();
    const method = effectiveAuthMethod(context.signing, context.signer);
    if (method !== "email_code" && method !== "sms_code") return "wrong";
    const evidence = await requestEvidence();
    await db.transaction((tx) => sendSignerCode(tx, { ...context, method, ...evidence }));
    return "sent";
  });
}

/** "Continue as <email>": the signed-in account whose email is the signer's. */
export async function continueWithAccountAction(formData: FormData): Promise<void> {
  await proofStep(formData, async (context) => {
    const { db } = await prepareDatabase();
    const principal = await getSessionPrincipal(db);
    if (!principal) redirect(`/sign-in?callbackUrl=${encodeURIComponent(proofPath(context.signing.id))}`);
    await passSignerProofWithAccount(db, { context, principal, ...(await requestEvidence()) });
    return null;
  });
}
