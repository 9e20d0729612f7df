"use server";

import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { z } from "zod";
import { CancelSigningSchema, SigningIdParamSchema } from "@/lib/api/schemas/signings";
import { cancelSigning } from "@/lib/signings/cancel-signing";
import { deleteSigning } from "@/lib/signings/delete-signing";
import { getSigningDetail } from "@/lib/signings/get-signing-detail";
import { remindSigners } from "@/lib/signings/remind-signers";
import { sendSigning } from "@/lib/signings/send-signing";
import { resendInvitation } from "@/lib/signer-access/resend-invitation";
import { formDataToObject, validatedAction, type FormState } from "../../../_lib/validated-action";
import { joinNames } from "@/lib/format";

// The manager's package actions: the `/v1` schemas and domain functions behind
// POST /v1/signing/manager/signings/{id}/send|remind|cancel and DELETE …/{id}.

const SigningForm = z.object({ signingId: SigningIdParamSchema.shape.id });
const SignerForm = z.object({ signingId: SigningIdParamSchema.shape.id, signerId: z.uuid({ error: "expected a signer id" }) });
const CancelForm = CancelSigningSchema.extend({ signingId: SigningIdParamSchema.shape.id });

const returnTo = (formData: FormData) => `/signings/${String(formData.get("signingId") ?? "")}`;

const send = validatedAction(
  SigningForm,
  async ({ signingId }, { db, principal, evidence: { ipAddress } }) => {
    await sendSigning(db, { principal, packageId: signingId, ipAddress });
    const { signers } = await getSigningDetail(db, { principal, packageId: signingId });
    const notified = signers.filter((s) => s.status === "notified").map((s) => s.name);
    revalidatePath(`/signings/${signingId}`);
    return { status: "ok", message: notified.length > 0 ? `Sent. ${joinNames(notified)} ${notified.length === 1 ? "has" : "have"} been emailed.` : "Sent." };
  },
  { returnTo },
);

const remind = validatedAction(
  SigningForm,
  async ({ signingId }, { db, principal, evidence: { ipAddress } }) => {
    const result = await remindSigners(db, { principal, packageId: signingId, ipAddress });
    const { signers } = await getSigningDetail(db, { principal, packageId: signingId });
    const names = (ids: string[]) => joinNames(signers.filter((s) => ids.includes(s.id)).map((s) => s.name));
    const parts: string[] = [];
    if (result.remindedSignerIds.length > 0) parts.push(`Reminder sent to ${names(result.remindedSignerIds)}.`);
    if (result.alreadyRemindedSignerIds.length > 0) {
      parts.push(`${names(result.alreadyRemindedSignerIds)} ${result.alreadyRemindedSignerIds.length === 1 ? "was" : "were"} already reminded in the last hour, so no second email was sent.`);
    }
    revalidatePath(`/signings/${signingId}`);
    return { status: "ok", message: parts.join(" ") || "Nobody is waiting to sign, so no reminder was sent." };
  },
  { returnTo },
);

const resend = validatedAction(
  SignerForm,
  async ({ signingId, signerId }, { db, principal, evidence: { ipAddress } }) => {
    const signer = await resendInvitation(db, { principal, packageId: signingId, signerId, ipAddress });
    revalidatePath(`/signings/${signingId}`);
    return { status: "ok", message: `A new invitation was emailed to ${signer.name}. The link sent before no longer works.` };
  },
  { returnTo },
);

const cancel = validatedAction(
  CancelForm,
  async ({ signingId, reason }, { db, principal, evidence: { ipAddress } }) => {
    await cancelSigning(db, { principal, packageId: signingId, reason, ipAddress });
    revalidatePath(`/signings/${signingId}`);
    return { status: "ok", message: "Package cancelled. Signers who were still to sign have been told by email." };
  },
  {
    returnTo,
    // An empty reason box means "no reason", as leaving `reason` out of the API's body does.
    toInput: (formData) => {
      const { reason, ...rest } = formDataToObject(formData);
      return typeof reason === "string" && reason.trim() === "" ? rest : { ...rest, reason };
    },
  },
);

const remove = validatedAction(
  SigningForm,
  async ({ signingId }, { db, principal, evidence: { ipAddress } }) => {
    await deleteSigning(db, { principal, packageId: signingId, ipAddress });
    revalidatePath("/signings");
    redirect("/signings");
  },
  { returnTo },
);

export async function sendSigningAction(previous: FormState, formData: FormData): Promise<FormState> {
  return send(previous, formData);
}

export async function remindSignersAction(previous: FormState, formData: FormData): Promise<FormState> {
  return remind(previous, formData);
}

/** "Resend invitation" for one signer: a new link by email, the older ones stop working (409/429 as messages). */
export async function resendInvitationAction(previous: FormState, formData: FormData): Promise<FormState> {
  return resend(previous, formData);
}

export async function cancelSigningAction(previous: FormState, formData: FormData): Promise<FormState> {
  return cancel(previous, formData);
}

export async function deleteSigningAction(previous: FormState, formData: FormData): Promise<FormState> {
  return remove(previous, formData);
}
