import { asc, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { auditLog } from "@/db/schema";
import { hashAuditEntry } from "./record-audit-entry";

export type AuditChainVerification = { verified: boolean; brokenAt: number | null };

/**
 * Re-computes a package's audit hash chain from the stored rows. `brokenAt` is the first entry whose
 * stored hash does not match its content, or whose `prevHash` does not name the entry before it —
 * so an edited entry, a removed entry (other than the last) or a reordering is caught.
 */
export async function verifyAuditChain(db: Db, options: { packageId: string }): Promise<AuditChainVerification> {
  const entries = await db.select().from(auditLog).where(eq(auditLog.packageId, options.packageId)).orderBy(asc(auditLog.id));
  let previous: string | null = null;
  for (const entry of entries) {
    const expected = hashAuditEntry({ ...entry, prevHash: previous });
    if (entry.prevHash !== previous || entry.hash !== expected) return { verified: false, brokenAt: entry.id };
    previous = entry.hash;
  }
  return { verified: true, brokenAt: null };
}
