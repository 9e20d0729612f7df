import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { packageSigners } from "@/db/schema";
import { recordAuditEntry } from "@/lib/audit/record-audit-entry";
import { requireCapability, type Principal } from "@/lib/auth/principal";
import { assertDraft } from "@/lib/packages/assert-draft";
import { getSignerOrThrow } from "@/lib/packages/get-signer-or-throw";
import { getSigningOrThrow } from "@/lib/packages/get-signing-or-throw";
import { serializeSigner } from "./serialize-signer";

/** Removes a signer from a draft. */
export async function removeSigner(
  db: Db,
  options: { principal: Principal; packageId: string; signerId: string; ipAddress?: string | null },
): Promise<void> {
  requireCapability(options.principal, "signings:write", "You do not have permission to change signers.");
  await db.transaction(async (tx) => {
    const signing = await getSigningOrThrow(tx, { ...options, capability: "signings:write", lock: true });
    const signer = await getSignerOrThrow(tx, options);
    assertDraft(signing, "change its signers");
    await tx.delete(packageSigners).where(eq(packageSigners.id, signer.id));
    await recordAuditEntry(tx, {
      organizationId: signing.organizationId,
      packageId: signing.id,
      actorUserId: options.principal.user.id,
      action: "signer.removed",
      entityType: "package_signer",
      entityId: signer.id,
      ipAddress: options.ipAddress,
      before: serializeSigner(signer),
    });
  });
}
