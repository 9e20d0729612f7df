import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { signingPackages } from "@/db/schema";
import { recordAuditEntry } from "@/lib/audit/record-audit-entry";
import { requireCapability, type Principal } from "@/lib/auth/principal";
import { assertDraft } from "@/lib/packages/assert-draft";
import { getSigningOrThrow } from "@/lib/packages/get-signing-or-throw";
import { serializeSigning } from "@/lib/packages/serialize-signing";

/**
 * Deletes a draft with its signers and documents; 409 once sent (cancel it instead). The deletion
 * closes the package's audit chain, which outlives the package (audit_log has no foreign keys).
 */
export async function deleteSigning(db: Db, options: { principal: Principal; packageId: string; ipAddress?: string | null }): Promise<void> {
  requireCapability(options.principal, "signings:write", "You do not have permission to delete signing packages.");
  await db.transaction(async (tx) => {
    const signing = await getSigningOrThrow(tx, { ...options, capability: "signings:write", lock: true });
    assertDraft(signing, "be deleted");
    await tx.delete(signingPackages).where(eq(signingPackages.id, signing.id));
    await recordAuditEntry(tx, {
      organizationId: signing.organizationId,
      packageId: signing.id,
      actorUserId: options.principal.user.id,
      action: "signing.deleted",
      entityType: "signing_package",
      entityId: signing.id,
      ipAddress: options.ipAddress,
      before: serializeSigning(signing),
    });
  });
}
