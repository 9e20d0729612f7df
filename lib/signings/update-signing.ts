import { and, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { flows, signingPackages, type SignerProofMethod, type SigningPackage } from "@/db/schema";
import { recordAuditEntry } from "@/lib/audit/record-audit-entry";
import { requireCapability, type Principal } from "@/lib/auth/principal";
import { NotFound } from "@/lib/errors";
import { assertDraft } from "@/lib/packages/assert-draft";
import { getSigningOrThrow } from "@/lib/packages/get-signing-or-throw";
import { serializeSigning } from "@/lib/packages/serialize-signing";

export type UpdateSigningOptions = {
  principal: Principal;
  packageId: string;
  title?: string;
  message?: string | null;
  flowId?: string | null;
  /** How signers prove who they are unless a signer sets its own (sending checks each signer has what it needs). */
  signerAuthMethod?: SignerProofMethod;
  expiresAt?: string | null;
  ipAddress?: string | null;
};

/** Edits a draft's title, message, flow, signers' method of proof or expiry; 409 once the package has been sent. */
export async function updateSigning(db: Db, options: UpdateSigningOptions): Promise<SigningPackage> {
  requireCapability(options.principal, "signings:write", "You do not have permission to edit signing packages.");
  const expiresAt = options.expiresAt === undefined ? undefined : options.expiresAt === null ? null : new Date(options.expiresAt);
  return db.transaction(async (tx) => {
    const before = await getSigningOrThrow(tx, { ...options, capability: "signings:write", lock: true });
    assertDraft(before, "be edited");
    if (options.flowId) {
      const [flow] = await tx
        .select({ id: flows.id })
        .from(flows)
        .where(and(eq(flows.id, options.flowId), eq(flows.organizationId, before.organizationId)))
        .limit(1);
      if (!flow) throw NotFound(`Flow ${options.flowId} not found.`);
    }
    const [after] = await tx
      .update(signingPackages)
      .set({
        ...(options.title !== undefined ? { title: options.title } : {}),
        ...(options.message !== undefined ? { message: options.message } : {}),
        ...(options.flowId !== undefined ? { flowId: options.flowId } : {}),
        ...(options.signerAuthMethod !== undefined ? { signerAuthMethod: options.signerAuthMethod } : {}),
        ...(expiresAt !== undefined ? { expiresAt } : {}),
        updatedAt: new Date(),
      })
      .where(eq(signingPackages.id, before.id))
      .returning();
    await recordAuditEntry(tx, {
      organizationId: before.organizationId,
      packageId: before.id,
      actorUserId: options.principal.user.id,
      action: "signing.updated",
      entityType: "signing_package",
      entityId: before.id,
      ipAddress: options.ipAddress,
      before: serializeSigning(before),
      after: serializeSigning(after!),
    });
    return after!;
  });
}
