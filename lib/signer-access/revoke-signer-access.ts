import { and, eq, inArray, isNull } from "drizzle-orm";
import type { Db } from "@/db/client";
import { signerAccessLinks, signerSessions } from "@/db/schema";

/**
 * Revokes access links and signer sessions, inside the caller's transaction: of some signers
 * (removed or replaced) or of a whole package (cancelled, declined, expired, completed links).
 */
export async function revokeSignerAccess(
  db: Db,
  options: { packageId?: string; signerIds?: string[]; now?: Date; links?: boolean; sessions?: boolean },
): Promise<void> {
  const now = options.now ?? new Date();
  const linkScope = options.signerIds
    ? options.signerIds.length === 0
      ? null
      : inArray(signerAccessLinks.signerId, options.signerIds)
    : options.packageId
      ? eq(signerAccessLinks.packageId, options.packageId)
      : null;
  const sessionScope = options.signerIds
    ? options.signerIds.length === 0
      ? null
      : inArray(signerSessions.signerId, options.signerIds)
    : options.packageId
      ? eq(signerSessions.packageId, options.packageId)
      : null;
  if (!linkScope || !sessionScope) return;
  if (options.links !== false) await db.update(signerAccessLinks).set({ revokedAt: now }).where(and(linkScope, isNull(signerAccessLinks.revokedAt)));
  if (options.sessions !== false) await db.update(signerSessions).set({ revokedAt: now }).where(and(sessionScope, isNull(signerSessions.revokedAt)));
}
