import { and, eq, inArray } from "drizzle-orm";
import type { Db } from "@/db/client";
import { packageSigners } from "@/db/schema";
import { recordAuditEntry } from "@/lib/audit/record-audit-entry";
import { requireCapability, type Principal } from "@/lib/auth/principal";
import { buildSignerSigningView, type SignerSigningView } from "./build-signer-signing-view";
import { getSignerAssignmentOrThrow, type SignerAssignment } from "@/lib/packages/get-signer-assignment-or-throw";
import { isOpenSigningStatus } from "@/lib/packages/state-machine";

export type GetAssignedSigningOptions = { principal: Principal; packageId: string; ipAddress?: string | null };

const UNSEEN = ["pending", "notified"] as const;

/**
 * A package assigned to the caller. Opening an open package for the first time marks the caller
 * `viewed` (from pending or notified) with an audit entry; the conditional update makes that happen
 * once even when two tabs open it together.
 */
export async function getAssignedSigning(db: Db, options: GetAssignedSigningOptions): Promise<SignerSigningView> {
  requireCapability(options.principal, "signer:signings:read", "You do not have permission to read signing packages.");
  const assignment = await getSignerAssignmentOrThrow(db, options);
  return buildSignerSigningView(db, await markAssignmentViewed(db, assignment, options));
}

/**
 * Marks the caller `viewed` on the assignment a page has already read, when it is the first time
 * they open the open package; returns the assignment as it now stands (the same object when nothing
 * changed, so a caller that has built its view keeps it).
 */
export async function markAssignmentViewed(db: Db, assignment: SignerAssignment, options: GetAssignedSigningOptions): Promise<SignerAssignment> {
  if (!(UNSEEN as readonly string[]).includes(assignment.signer.status) || !isOpenSigningStatus(assignment.signing.status)) {
    return assignment;
  }
  return db.transaction(async (tx) => {
    const locked = await getSignerAssignmentOrThrow(tx, { ...options, lock: true });
    if (!isOpenSigningStatus(locked.signing.status)) return locked;
    const [updated] = await tx
      .update(packageSigners)
      .set({ status: "viewed", viewedAt: new Date() })
      .where(and(eq(packageSigners.id, locked.signer.id), inArray(packageSigners.status, [...UNSEEN])))
      .returning();
    if (!updated) return locked;
    await recordAuditEntry(tx, {
      organizationId: locked.signing.organizationId,
      packageId: locked.signing.id,
      actorUserId: options.principal.user.id,
      action: "signer.viewed",
      entityType: "package_signer",
      entityId: updated.id,
      ipAddress: options.ipAddress,
      before: { status: locked.signer.status },
      after: { status: updated.status },
    });
    return { signing: locked.signing, signer: updated };
  });
}
