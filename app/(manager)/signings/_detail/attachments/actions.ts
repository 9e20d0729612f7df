"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { setAttachmentRequestRequired, withdrawAttachmentRequest } from "@/lib/attachments/change-attachment-request";
import { reviewSignerAttachment } from "@/lib/attachments/review-signer-attachment";
import { validatedAction, type FormState } from "../../../../_lib/validated-action";

/** The same decision as POST /v1/…/attachments/{attachmentId}/review, with the form's ids. */
const ReviewFormSchema = z.discriminatedUnion("decision", [
  z.object({ signingId: z.string().max(100), attachmentId: z.string().max(100), decision: z.literal("accept") }),
  z.object({
    signingId: z.string().max(100),
    attachmentId: z.string().max(100),
    decision: z.literal("reject"),
    reason: z.string({ error: "Say why, so the signer knows what to send." }).trim().min(1, "Say why, so the signer knows what to send.").max(1000, "At most 1000 characters."),
  }),
]);

const review = validatedAction(
  ReviewFormSchema,
  async (input, { db, principal, evidence }) => {
    const { signing } = await reviewSignerAttachment(db, {
      principal,
      packageId: input.signingId,
      attachmentId: input.attachmentId,
      review: input.decision === "accept" ? { decision: "accept" } : { decision: "reject", reason: input.reason },
      ipAddress: evidence.ipAddress,
    });
    revalidatePath(`/signings/${input.signingId}`);
    if (input.decision === "reject") return { status: "ok", message: "Rejected. The signer was emailed the reason and can send another file." };
    return { status: "ok", message: signing.status === "completed" ? "Accepted. Nothing else was missing: the package is complete." : "Accepted." };
  },
  { returnTo: (formData) => `/signings/${encodeURIComponent(String(formData.get("signingId") ?? ""))}` },
);

/** Accept or reject one attachment from the manager's package page. */
export async function reviewAttachmentAction(previous: FormState, formData: FormData): Promise<FormState> {
  return review(previous, formData);
}

/** The same changes as PATCH and DELETE /v1/…/attachment-requests/{requestId}, with the form's ids. */
const RequestChangeFormSchema = z.object({
  signingId: z.string().max(100),
  requestId: z.string().max(100),
  change: z.enum(["optional", "required", "withdraw"], { error: "Choose what to change." }),
});

const changeRequest = validatedAction(
  RequestChangeFormSchema,
  async (input, { db, principal, evidence }) => {
    const target = { principal, packageId: input.signingId, requestId: input.requestId, ipAddress: evidence.ipAddress };
    const { signing } =
      input.change === "withdraw" ? await withdrawAttachmentRequest(db, target) : await setAttachmentRequestRequired(db, { ...target, required: input.change === "required" });
    revalidatePath(`/signings/${input.signingId}`);
    const done = signing.status === "completed" ? " Nothing else was missing: the package is complete." : "";
    const said = { withdraw: "Request withdrawn; the signer no longer sees it.", optional: "The package no longer waits for this attachment.", required: "This attachment is required again." };
    return { status: "ok", message: `${said[input.change]}${done}` };
  },
  { returnTo: (formData) => `/signings/${encodeURIComponent(String(formData.get("signingId") ?? ""))}` },
);

/** Make a request optional or required, or withdraw one nothing was sent for, from the manager's package page. */
export async function changeAttachmentRequestAction(previous: FormState, formData: FormData): Promise<FormState> {
  return changeRequest(previous, formData);
}
