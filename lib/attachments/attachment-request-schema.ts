import { z } from "zod";
import { MAX_REQUESTS_PER_SIGNER } from "./limits";

/** One attachment asked of a signer, as the package form, templates, bulk CSV and `/v1` send it. */
export const AttachmentRequestInputSchema = z.object({
  name: z.string().trim().min(1, "name the attachment (e.g. Driver's license, front and back)").max(200),
  description: z.string().trim().max(1000).optional().nullable(),
  required: z.boolean().default(true),
});
export type AttachmentRequestInput = z.input<typeof AttachmentRequestInputSchema>;

export const AttachmentRequestListSchema = z.array(AttachmentRequestInputSchema).max(MAX_REQUESTS_PER_SIGNER, `at most ${MAX_REQUESTS_PER_SIGNER} attachments per signer`);

/** The body of an accept or reject decision, shared by `/v1` and the console's server action. */
export const attachmentReviewSchema = z.discriminatedUnion("decision", [
  z.object({ decision: z.literal("accept") }),
  z.object({ decision: z.literal("reject"), reason: z.string().trim().min(1, "a reason is required to reject an attachment").max(1000) }),
]);
export type AttachmentReview = z.infer<typeof attachmentReviewSchema>;

/**
 * The form's text for a signer's requests: one per line, `Name | description`, a trailing `(optional)`
 * marks an optional one ("Proof of insurance (optional)"). Also the bulk CSV's `attachments` column,
 * with `;` between requests.
 */
export function parseAttachmentRequestLines(text: string, separator: RegExp = /\r?\n|;/): AttachmentRequestInput[] {
  return text
    .split(separator)
    .map((line) => line.trim())
    .filter(Boolean)
    .map((line) => {
      const optional = /\(optional\)\s*$/i.test(line);
      const body = line.replace(/\(optional\)\s*$/i, "").trim();
      const [name, ...rest] = body.split("|");
      const description = rest.join("|").trim();
      return { name: (name ?? "").trim(), description: description || null, required: !optional };
    });
}

/** Requests as the form's text (the inverse of `parseAttachmentRequestLines` with one per line). */
export function attachmentRequestLines(requests: { name: string; description: string | null; required: boolean }[]): string {
  return requests.map((r) => `${r.name}${r.description ? ` | ${r.description}` : ""}${r.required ? "" : " (optional)"}`).join("\n");
}
