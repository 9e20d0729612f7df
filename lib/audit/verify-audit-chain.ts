import { asc, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { auditLog, packageSeals, type AuditEntry } from "@/db/schema";
import { hashAuditEntry } from "./record-audit-entry";

export type AuditChainVerification = { verified: boolean; brokenAt: number | null };

/** The action `sealPackage` appends; its `after.anchoredAuditHead` names the head the certificate carries. */
const SIGNING_SEALED = "signing.sealed";

/**
 * Re-computes a package's audit hash chain from the stored rows. `brokenAt` is the first entry whose
 * stored hash does not match its content, or whose `prevHash` does not name the entry before it —
 * so an edited entry, a removed entry (other than the last) or a reordering is caught.
 *
 * A chain alone cannot show that its last entries were deleted. Once a package completes, its head
 * is anchored (`package_seals.audit_head_hash`, printed on the signed certificate of completion), and
 * once sealed, a `signing.sealed` entry follows it. If the anchored entry or the seal entry is gone,
 * the chain was truncated: `verified` is false and `brokenAt` is the last entry that remains (null
 * when none does).
 */
export async function verifyAuditChain(db: Db, options: { packageId: string }): Promise<AuditChainVerification> {
  const entries = await db.select().from(auditLog).where(eq(auditLog.packageId, options.packageId)).orderBy(asc(auditLog.id));
  let previous: string | null = null;
  for (const entry of entries) {
    const expected = hashAuditEntry({ ...entry, prevHash: previous });
    if (entry.prevHash !== previous || entry.hash !== expected) return { verified: false, brokenAt: entry.id };
    previous = entry.hash;
  }
  const [seal] = await db
    .select({ status: packageSeals.status, auditHeadHash: packageSeals.auditHeadHash })
    .from(packageSeals)
    .where(eq(packageSeals.packageId, options.packageId))
    .limit(1);
  if (seal?.auditHeadHash && isTruncated(entries, seal.auditHeadHash, seal.status === "sealed")) {
    return { verified: false, brokenAt: entries.at(-1)?.id ?? null };
  }
  return { verified: true, brokenAt: null };
}

function isTruncated(entries: AuditEntry[], anchor: string, sealed: boolean): boolean {
  const at = entries.findIndex((e) => e.hash === anchor);
  if (at < 0) return true;
  if (!sealed) return false;
  return !entries
    .slice(at + 1)
    .some((e) => e.action === SIGNING_SEALED && (e.after as { anchoredAuditHead?: unknown } | null)?.anchoredAuditHead === anchor);
}
