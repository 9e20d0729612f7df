import { and, eq } from "drizzle-orm";
import { actorUserIdOf } from "@/lib/signer-access/signer-session-principal";
import type { Db } from "@/db/client";
import { packageSigners, signatureRequests } from "@/db/schema";
import { recordAuditEntry } from "@/lib/audit/record-audit-entry";
import { requireCapability, type Principal } from "@/lib/auth/principal";
import { sendEmailDeclaration } from "@/lib/email/send-email-payload";
import { declinedEmail } from "@/lib/email/templates/declined-email";
import { signingLink } from "@/lib/email/templates/signing-link";
import { Conflict } from "@/lib/errors";
import { enqueueJob } from "@/lib/jobs/enqueue-job";
import { buildSignerSigningView, type SignerSigningView } from "./build-signer-signing-view";
import { getSignerAssignmentOrThrow } from "@/lib/packages/get-signer-assignment-or-throw";
import { getSigningCreator } from "@/lib/packages/get-signing-creator";
import { assertTransition } from "@/lib/packages/state-machine";
import { transitionSigning } from "@/lib/package-lifecycle/transition-signing";

export type DeclineSigningOptions = { principal: Principal; packageId: string; reason: string; ipAddress?: string | null };

/**
 * A signer declines: their signer row becomes `declined` (with the reason), their pending signature
 * requests `declined` and the package `declined`, in one transaction with the audit entries and an
 * email job telling the package's creator (key `signing-declined:<id>`). Only a sent or in-progress
 * package can be declined (409 otherwise), and not by a signer who has already signed.
 */
export async function declineSigning(db: Db, options: DeclineSigningOptions): Promise<SignerSigningView> {
  requireCapability(options.principal, "signer:esignatures:write", "You do not have permission to decline signing packages.");
  const assignment = await db.transaction(async (tx) => {
    const { signing, signer } = await getSignerAssignmentOrThrow(tx, { ...options, lock: true, includeDrafts: true });
    // Checked before the signer's own state so a closed package answers with its state.
    assertTransition(signing.status, "declined", signing.status === "draft" ? undefined : "package_closed");
    if (signer.status === "signed") throw Conflict("You have already signed this package; it can no longer be declined.", "already_signed");
    const now = new Date();
    const [declinedSigner] = await tx
      .update(packageSigners)
      .set({ status: "declined", declinedAt: now, declineReason: options.reason, updatedAt: now })
      .where(eq(packageSigners.id, signer.id))
      .returning();
    await tx
      .update(signatureRequests)
      .set({ status: "declined" })
      .where(and(eq(signatureRequests.signerId, signer.id), eq(signatureRequests.status, "pending")));
    const audit = { actorUserId: actorUserIdOf(options.principal), ipAddress: options.ipAddress };
    await recordAuditEntry(tx, {
      ...audit,
      organizationId: signing.organizationId,
      packageId: signing.id,
      action: "signer.declined",
      entityType: "package_signer",
      entityId: signer.id,
      before: { status: signer.status },
      after: { status: "declined", reason: options.reason },
    });
    const creator = await getSigningCreator(tx, signing);
    const declinedSigning = await transitionSigning(tx, signing, "declined", {
      ...audit,
      details: { declinedBySignerId: signer.id, notifiedUserIds: creator ? [creator.id] : [] },
    }, { at: now });
    if (creator) {
      const email = declinedEmail({
        recipientName: creator.name,
        signingTitle: signing.title,
        signerName: signer.name,
        reason: options.reason,
        link: signingLink(signing.id),
      });
      await enqueueJob(tx, sendEmailDeclaration, { to: creator.email, ...email }, { idempotencyKey: `signing-declined:${signing.id}` });
    }
    return { signing: declinedSigning, signer: declinedSigner! };
  });
  return buildSignerSigningView(db, assignment);
}
