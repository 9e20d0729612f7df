import { and, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { packageSigners, signatureRequests, signingPackages } from "@/db/schema";
import { recordAuditEntry } from "@/lib/audit/record-audit-entry";
import { requireCapability, type Principal } from "@/lib/auth/principal";
import { Conflict } from "@/lib/errors";
import { buildSignerSigningView, type SignerSigningView } from "./build-signer-signing-view";
import { getSignerAssignmentOrThrow } from "./get-signer-assignment-or-throw";
import { assertTransition } from "./state-machine";

export type DeclineSigningOptions = { principal: Principal; packageId: string; reason: string; ipAddress?: string | null };

/**
 * A signer declines: their signer row becomes `declined` (with the reason), their pending signature
 * requests `declined` and the package `declined`, in one transaction with the audit entries. Only a sent or in-progress package can be
 * declined (409 otherwise), and not by a signer who has already signed.
 */
export async function declineSigning(db: Db, options: DeclineSigningOptions): Promise<SignerSigningView> {
  requireCapability(options.principal, "signer:esignatures:write", "You do not have permission to decline signing packages.");
  const assignment = await db.transaction(async (tx) => {
    const { signing, signer } = await getSignerAssignmentOrThrow(tx, { ...options, lock: true, includeDrafts: true });
    assertTransition(signing.status, "declined");
    if (signer.status === "signed") throw Conflict("You have already signed this package; it can no longer be declined.");
    const now = new Date();
    const [declinedSigner] = await tx
      .update(packageSigners)
      .set({ status: "declined", declinedAt: now, declineReason: options.reason })
      .where(eq(packageSigners.id, signer.id))
      .returning();
    await tx
      .update(signatureRequests)
      .set({ status: "declined" })
      .where(and(eq(signatureRequests.signerId, signer.id), eq(signatureRequests.status, "pending")));
    const [declinedSigning] = await tx
      .update(signingPackages)
      .set({ status: "declined", declinedAt: now })
      .where(eq(signingPackages.id, signing.id))
      .returning();
    const common = {
      organizationId: signing.organizationId,
      packageId: signing.id,
      actorUserId: options.principal.user.id,
      ipAddress: options.ipAddress,
    };
    await recordAuditEntry(tx, {
      ...common,
      action: "signer.declined",
      entityType: "package_signer",
      entityId: signer.id,
      before: { status: signer.status },
      after: { status: "declined", reason: options.reason },
    });
    await recordAuditEntry(tx, {
      ...common,
      action: "signing.declined",
      entityType: "signing_package",
      entityId: signing.id,
      before: { status: signing.status },
      after: { status: "declined", declinedBySignerId: signer.id },
    });
    return { signing: declinedSigning!, signer: declinedSigner! };
  });
  return buildSignerSigningView(db, assignment);
}
