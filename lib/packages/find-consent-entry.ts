import { and, asc, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { auditLog, type AuditEntry } from "@/db/schema";

/** The audit action that records a signer's acceptance of the electronic-records disclosure. */
export const SIGNER_CONSENTED = "signer.consented";

/** The first `signer.consented` entry of this signer in this package's trail, or undefined. */
export async function findConsentEntry(db: Db, { packageId, signerId }: { packageId: string; signerId: string }): Promise<AuditEntry | undefined> {
  const [entry] = await db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.packageId, packageId), eq(auditLog.action, SIGNER_CONSENTED), eq(auditLog.entityId, signerId)))
    .orderBy(asc(auditLog.id))
    .limit(1);
  return entry;
}
