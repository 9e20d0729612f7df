import { and, eq, gt } from "drizzle-orm";
import type { Db } from "@/db/client";
import { signerAccessLinks, type PackageSigner } from "@/db/schema";
import { recordAuditEntry } from "@/lib/audit/record-audit-entry";
import { requireCapability, type Principal } from "@/lib/auth/principal";
import { sendEmailDeclaration } from "@/lib/email/send-email-payload";
import { Conflict, TooManyRequests } from "@/lib/errors";
import { enqueueJob } from "@/lib/jobs/enqueue-job";
import { queueSignerSms } from "@/lib/sms/queue-signer-sms";
import { getSignerOrThrow } from "@/lib/packages/get-signer-or-throw";
import { getSigningOrThrow } from "@/lib/packages/get-signing-or-throw";
import { issueAccessLinkId } from "./issue-access-link";
import { SIGNER_RESEND_INTERVAL_MS } from "./rules";

/**
 * "Resend invitation": a new access link (the signer's older ones stop working) mailed with the
 * invitation text to the signer's address, for a signer who was invited and has not signed or
 * declined, on a sent or in-progress package. At most once a minute per signer (429). Audited as
 * `signer.invitation_resent`.
 */
export async function resendInvitation(
  db: Db,
  options: { principal: Principal; packageId: string; signerId: string; ipAddress?: string | null; now?: Date },
): Promise<PackageSigner> {
  requireCapability(options.principal, "signings:write", "You do not have permission to send invitations.");
  const now = options.now ?? new Date();
  return db.transaction(async (tx) => {
    const signing = await getSigningOrThrow(tx, { ...options, capability: "signings:write", lock: true });
    const signer = await getSignerOrThrow(tx, options);
    if (signing.status !== "sent" && signing.status !== "in_progress") {
      throw Conflict(`Only a sent or in-progress package's signers can be invited again; this one is ${signing.status.replace("_", " ")}.`);
    }
    if (signer.status !== "notified" && signer.status !== "viewed") {
      throw Conflict(
        signer.status === "pending" ? "This signer's turn has not come yet: they are invited when the signers before them have signed." : `This signer has ${signer.status}.`,
      );
    }
    const since = new Date(now.getTime() - SIGNER_RESEND_INTERVAL_MS);
    const [recent] = await tx
      .select({ id: signerAccessLinks.id })
      .from(signerAccessLinks)
      .where(and(eq(signerAccessLinks.signerId, signer.id), gt(signerAccessLinks.createdAt, since)))
      .limit(1);
    if (recent) throw TooManyRequests("This signer was sent a link less than a minute ago.", 60);
    const linkId = await issueAccessLinkId(tx, { signing, signerId: signer.id, now });
    // The invitation, branded like the first one, rendered with the new link when the job sends it.
    await enqueueJob(tx, sendEmailDeclaration, { message: "signer-invitation", linkId });
    // The new link supersedes the one in any earlier text, so a signer who agreed to texts gets it by text too.
    await queueSignerSms(tx, {
      signing,
      signer,
      kind: "invitation",
      linkId,
      idempotencyKey: `signing-invite-resent:${signer.id}:${now.getTime()}`,
    });
    await recordAuditEntry(tx, {
      organizationId: signing.organizationId,
      packageId: signing.id,
      actorUserId: options.principal.user.id,
      action: "signer.invitation_resent",
      entityType: "package_signer",
      entityId: signer.id,
      ipAddress: options.ipAddress,
      after: { status: signer.status },
    });
    return signer;
  });
}
