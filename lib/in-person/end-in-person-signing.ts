import { and, eq, isNull } from "drizzle-orm";
import type { Db } from "@/db/client";
import { inPersonSignings, signerSessions, signingPackages } from "@/db/schema";
import { recordAuditEntry } from "@/lib/audit/record-audit-entry";

/**
 * The device goes back to its host: the in-person session ends (revoked, so the signer's cookie opens
 * nothing any more) and `signer.in_person_ended` is audited. Does nothing for a session that is not an
 * in-person one or has already ended. Returns the package, for the host's sign-in to come back to.
 */
export async function endInPersonSigning(db: Db, options: { sessionId: string; ipAddress?: string | null; now?: Date }): Promise<{ packageId: string } | null> {
  const now = options.now ?? new Date();
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(inPersonSignings)
      .set({ endedAt: now })
      .where(and(eq(inPersonSignings.sessionId, options.sessionId), isNull(inPersonSignings.endedAt)))
      .returning();
    if (!row) return null;
    await tx.update(signerSessions).set({ revokedAt: now }).where(and(eq(signerSessions.id, options.sessionId), isNull(signerSessions.revokedAt)));
    const [signing] = await tx.select({ organizationId: signingPackages.organizationId }).from(signingPackages).where(eq(signingPackages.id, row.packageId));
    await recordAuditEntry(tx, {
      organizationId: signing!.organizationId,
      packageId: row.packageId,
      actorUserId: null,
      action: "signer.in_person_ended",
      entityType: "package_signer",
      entityId: row.signerId,
      ipAddress: options.ipAddress,
      after: { host: { name: row.hostName, email: row.hostEmail } },
    });
    return { packageId: row.packageId };
  });
}

/** The in-person record behind a signer session, or null for any other session. */
export async function inPersonSigningOf(db: Db, sessionId: string) {
  const [row] = await db.select().from(inPersonSignings).where(eq(inPersonSignings.sessionId, sessionId)).limit(1);
  return row ?? null;
}
