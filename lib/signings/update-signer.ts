import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { packageSigners, type PackageSigner } from "@/db/schema";
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
  /** null: follow the organization's default language. */
  language?: "en" | "es" | null;
  ipAddress?: string | null;
};

/** Edits a signer of a draft; a new email re-links the signer to that email's user. */
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
          ...(options.language !== undefined ? { language: options.language } : {}),
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
