import { z } from "zod";
import type { JobDeclaration } from "@/lib/jobs/define-job";

/**
 * What the send-email job carries, and its declaration for `enqueueJob`. A mail that carries an access
 * link, a one-time code or another secret is enqueued by ids and kind and rendered when it is sent
 * (the job's handler: lib/job-runner/send-email-job.ts), so no link or code is ever in a payload (a
 * `jobs` row, an Inngest event). Other mails are rendered by a template of `lib/email/templates/` when
 * they are enqueued. Enqueue with an idempotency key naming what the mail is about (e.g.
 * `invite:<signerId>`) so a retried request does not mail twice.
 */
export const SEND_EMAIL_JOB = "send-email";

/**
 * A signer's email that carries an access link, by id: the job renders it when it sends it, with the
 * link's URL computed then (`accessLinkUrlOf`), so the payload (a `jobs` row, an Inngest event) holds
 * no link. `senderName` is the manager who asked for a reminder.
 */
export const signerLinkEmailSchema = z.object({
  message: z.enum(["signer-invitation", "signer-your-turn", "signer-new-link", "signer-reminder", "signer-completed", "signer-attachment-rejected"]),
  linkId: z.uuid(),
  /** `signer-attachment-rejected`: the attachment whose request and reason the mail names (read at send time). */
  attachmentId: z.uuid().optional(),
  senderName: z.string().min(1).max(200).optional(),
});

/** The one-time code email of a signer's proof challenge, by id (the code is computed at send time). */
export const signerCodeEmailSchema = z.object({ message: z.literal("signer-code"), challengeId: z.uuid() });

export type SignerEmailPayload = z.output<typeof signerLinkEmailSchema> | z.output<typeof signerCodeEmailSchema>;

/** The settlement agent's link email, by the link's id: rendered, with the link's URL, when it is sent. */
export const agentLinkEmailSchema = z.object({ message: z.literal("settlement-agent-link"), agentLinkId: z.uuid() });

/**
 * A workspace invitation email, by ids: the membership, the organization, the password-link token's
 * row when the person has no password yet, and the inviter's name. Rendered when it is sent, with
 * the link computed from its row (`inviteLinkToken`), so the job's payload holds no link.
 */
export const memberInviteEmailSchema = z.object({
  message: z.literal("member-invitation"),
  membershipId: z.uuid(),
  organizationId: z.number().int().positive(),
  inviteTokenId: z.uuid().optional(),
  inviterName: z.string().min(1).max(200),
});

/** An email rendered when it is enqueued (one that carries no access link, code or other secret). */
const renderedEmailSchema = z.object({
  to: z.email(),
  subject: z.string().min(1).max(500),
  text: z.string().min(1).max(100_000),
  html: z.string().min(1).max(200_000).optional(),
  replyTo: z.email().optional(),
  /** The sender's display name ("<Lender> via Closing & Signing"); EMAIL_FROM's address stays the sender. */
  fromName: z.string().min(1).max(200).optional(),
});

export const sendEmailPayloadSchema = z.union([signerLinkEmailSchema, signerCodeEmailSchema, agentLinkEmailSchema, memberInviteEmailSchema, renderedEmailSchema]);

/** The send-email job as enqueuers see it: its name, payload and attempts (the handler is the runner's). */
export const sendEmailDeclaration: JobDeclaration<typeof sendEmailPayloadSchema> = {
  name: SEND_EMAIL_JOB,
  schema: sendEmailPayloadSchema,
  maxAttempts: 10,
};
