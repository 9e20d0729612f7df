import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { packageSigners, type PackageSigner, type SignerAuthMethod } from "@/db/schema";
import { hashPassword } from "@/lib/auth/passwords";
import { recordAuditEntry } from "@/lib/audit/record-audit-entry";
import { requireCapability, type Principal } from "@/lib/auth/principal";
import { pgErrorCode } from "@/lib/db/pg-error-code";
import { Conflict } from "@/lib/errors";
import { assertDraft } from "./assert-draft";
import { findUserIdByEmail } from "./find-user-id-by-email";
import { getSignerOrThrow } from "./get-signer-or-throw";
import { getSigningOrThrow } from "./get-signing-or-throw";
import { serializeSigner } from "./serialize-signer";

export type UpdateSignerOptions = {
  principal: Principal;
  packageId: string;
  signerId: string;
  name?: string;
  email?: string;
  role?: "signer" | "co_signer";
  routingOrder?: number;
  /** The signer's own method of proof; null follows the package's. */
  authMethod?: SignerAuthMethod | null;
  /** A new access code (write-only: stored hashed, replaces the old one). */
  accessCode?: string;
  /** E.164 mobile number; null removes it. */
  phone?: string | null;
  ipAddress?: string | null;
};

/**
 * Edits a signer of a draft; a new email re-links the signer to that email's user. A new access code
 * replaces the stored hash (the code is never stored or audited in clear); sending checks that each
 * signer's method has what it needs.
 */
export async function updateSigner(db: Db, options: UpdateSignerOptions): Promise<PackageSigner> {
  requireCapability(options.principal, "signings:write", "You do not have permission to change signers.");
  try {
    return await db.transaction(async (tx) => {
      const signing = await getSigningOrThrow(tx, { ...options, capability: "signings:write", lock: true });
      const before = await getSignerOrThrow(tx, options);
      assertDraft(signing, "change its signers");
      const [after] = await tx
        .update(packageSigners)
        .set({
          ...(options.name !== undefined ? { name: options.name } : {}),
          ...(options.email !== undefined ? { email: options.email, userId: await findUserIdByEmail(tx, options.email) } : {}),
          ...(options.role !== undefined ? { role: options.role } : {}),
          ...(options.routingOrder !== undefined ? { routingOrder: options.routingOrder } : {}),
          ...(options.authMethod !== undefined ? { authMethod: options.authMethod } : {}),
          ...(options.accessCode ? { accessCodeHash: await hashPassword(options.accessCode.trim()) } : {}),
          ...(options.phone !== undefined ? { phone: options.phone?.trim() || null } : {}),
          updatedAt: new Date(),
        })
        .where(eq(packageSigners.id, before.id))
        .returning();
      await recordAuditEntry(tx, {
        organizationId: signing.organizationId,
        packageId: signing.id,
        actorUserId: options.principal.user.id,
        action: "signer.updated",
        entityType: "package_signer",
        entityId: before.id,
        ipAddress: options.ipAddress,
        before: serializeSigner(before),
        after: serializeSigner(after!),
      });
      return after!;
    });
  } catch (error) {
    if (pgErrorCode(error) === "23505") throw Conflict(`A signer with email ${options.email} is already on this signing package.`);
    throw error;
  }
}
