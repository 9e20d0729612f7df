import type { Db } from "@/db/client";
import { packageSigners, type PackageSigner } from "@/db/schema";
import { recordAuditEntry } from "@/lib/audit/record-audit-entry";
import { requireCapability, type Principal } from "@/lib/auth/principal";
import { pgErrorCode } from "@/lib/db/pg-error-code";
import { Conflict } from "@/lib/errors";
import { signerAccessColumns, type SignerAccessInput } from "@/lib/signer-access/signer-access-columns";
import { assertDraft } from "@/lib/packages/assert-draft";
import { findUserIdByEmail } from "./find-user-id-by-email";
import { getSigningOrThrow } from "@/lib/packages/get-signing-or-throw";
import { serializeSigner } from "./serialize-signer";

export type AddSignerOptions = SignerAccessInput & {
  principal: Principal;
  packageId: string;
  name: string;
  email: string;
  role: "signer" | "co_signer";
  routingOrder: number;
  /** The signer's language; null or absent follows the organization's default. */
  language?: "en" | "es" | null;
  ipAddress?: string | null;
};

/** Adds a signer to a draft; 409 when the email is already on the package (case-insensitive). */
export async function addSigner(db: Db, options: AddSignerOptions): Promise<PackageSigner> {
  requireCapability(options.principal, "signings:write", "You do not have permission to change signers.");
  try {
    return await db.transaction(async (tx) => {
      const signing = await getSigningOrThrow(tx, { ...options, capability: "signings:write", lock: true });
      assertDraft(signing, "change its signers");
      const [signer] = await tx
        .insert(packageSigners)
        .values({
          packageId: signing.id,
          userId: await findUserIdByEmail(tx, options.email),
          name: options.name,
          email: options.email,
          role: options.role,
          routingOrder: options.routingOrder,
          ...(await signerAccessColumns(options, { userId: options.principal.user.id })),
          language: options.language ?? null,
        })
        .returning();
      await recordAuditEntry(tx, {
        organizationId: signing.organizationId,
        packageId: signing.id,
        actorUserId: options.principal.user.id,
        action: "signer.added",
        entityType: "package_signer",
        entityId: signer!.id,
        ipAddress: options.ipAddress,
        after: serializeSigner(signer!),
      });
      return signer!;
    });
  } catch (error) {
    if (pgErrorCode(error) === "23505") throw Conflict(`A signer with email ${options.email} is already on this signing package.`);
    throw error;
  }
}
