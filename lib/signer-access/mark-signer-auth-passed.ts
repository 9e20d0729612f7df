import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { packageSigners, signerSessions, type PackageSigner, type SignerAuthMethod, type SignerSession, type SigningPackage } from "@/db/schema";
import { recordAuditEntry } from "@/lib/audit/record-audit-entry";

/** Records a passed proof on the session and the signer row (the certificate names the method) and audits it. */
export async function markSignerAuthPassed(
  db: Db,
  options: {
    session: SignerSession;
    signing: Pick<SigningPackage, "id" | "organizationId">;
    signer: Pick<PackageSigner, "id">;
    method: SignerAuthMethod;
    ipAddress?: string | null;
    userAgent?: string | null;
    now: Date;
  },
): Promise<void> {
  const { now, method } = options;
  await db.update(signerSessions).set({ authPassedAt: now, authMethod: method }).where(eq(signerSessions.id, options.session.id));
  await db.update(packageSigners).set({ authPassedAt: now, authPassedMethod: method, updatedAt: now }).where(eq(packageSigners.id, options.signer.id));
  await recordAuditEntry(db, {
    organizationId: options.signing.organizationId,
    packageId: options.signing.id,
    actorUserId: null,
    action: "signer.auth_passed",
    entityType: "package_signer",
    entityId: options.signer.id,
    ipAddress: options.ipAddress,
    after: { method, userAgent: options.userAgent?.slice(0, 500) ?? null },
  });
}
