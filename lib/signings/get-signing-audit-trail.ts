import { and, asc, eq, gt, type SQL } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/db/client";
import { auditLog, type AuditEntry } from "@/db/schema";
import { requireCapability, type Principal } from "@/lib/auth/principal";
import { cursorBinding, decodeKeyCursor } from "@/lib/pagination/keyset-cursor";
import { toKeysetPage, type KeysetPage } from "@/lib/pagination/keyset-page";
import { getSigningOrThrow } from "@/lib/packages/get-signing-or-throw";
import { verifyAuditChain, type AuditChainVerification } from "@/lib/audit/verify-audit-chain";

export type GetSigningAuditTrailOptions = { principal: Principal; packageId: string; limit: number; cursor?: string };

/**
 * A package's audit trail in order (keyset-paginated by entry id), with the verification of its
 * whole hash chain. Managers read packages in their scope, admins every package (`audit:read`).
 */
export async function getSigningAuditTrail(
  db: Db,
  options: GetSigningAuditTrailOptions,
): Promise<KeysetPage<AuditEntry> & AuditChainVerification> {
  requireCapability(options.principal, "audit:read", "You do not have permission to read audit trails.");
  const signing = await getSigningOrThrow(db, { principal: options.principal, packageId: options.packageId, capability: "audit:read" });
  const conditions: SQL[] = [eq(auditLog.packageId, signing.id)];
  const binding = cursorBinding("audit-trail", options);
  const afterId = decodeKeyCursor(options.cursor, z.number().int().nonnegative(), binding);
  if (afterId !== null) conditions.push(gt(auditLog.id, afterId));
  const rows = await db
    .select()
    .from(auditLog)
    .where(and(...conditions))
    .orderBy(asc(auditLog.id))
    .limit(options.limit + 1);
  const verification = await verifyAuditChain(db, { packageId: signing.id });
  return { ...toKeysetPage(rows, options.limit, (r) => [r.id], binding), ...verification };
}
