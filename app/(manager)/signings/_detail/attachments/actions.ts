"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
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
