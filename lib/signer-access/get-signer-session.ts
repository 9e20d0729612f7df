import { and, eq, isNull } from "drizzle-orm";
import type { Db } from "@/db/client";
import { packageSigners, signerSessions, signingPackages, type PackageSigner, type SignerSession, type SigningPackage } from "@/db/schema";
import { isUuid } from "@/lib/ids";
import { SIGNER_SESSION_IDLE_MS } from "./rules";
import { sha256Hex } from "@/lib/security/secrets";

export type SignerSessionContext = { session: SignerSession; signing: SigningPackage; signer: PackageSigner };

/** Writes of `last_seen_at` are skipped within this interval (every page load would write otherwise). */
const TOUCH_INTERVAL_MS = 60_000;

/**
 * The live signer session behind a cookie value for one package, or null: unknown, revoked, idle
 * for 30 minutes, past its 12 hours, or for another package. Refreshes its idle clock.
 */
export async function getSignerSession(
  db: Db,
  options: { packageId: string; value: string | undefined | null; now?: Date },
): Promise<SignerSessionContext | null> {
  const now = options.now ?? new Date();
  if (!options.value || options.value.length > 100 || !isUuid(options.packageId)) return null;
  const [row] = await db
    .select({ session: signerSessions, signing: signingPackages, signer: packageSigners })
    .from(signerSessions)
    .innerJoin(signingPackages, eq(signingPackages.id, signerSessions.packageId))
    .innerJoin(packageSigners, eq(packageSigners.id, signerSessions.signerId))
    .where(
      and(
        eq(signerSessions.sessionHash, sha256Hex(options.value)),
        eq(signerSessions.packageId, options.packageId),
        isNull(signerSessions.revokedAt),
      ),
    )
    .limit(1);
  if (!row) return null;
  if (row.session.expiresAt <= now) return null;
  if (now.getTime() - row.session.lastSeenAt.getTime() >= SIGNER_SESSION_IDLE_MS) return null;
  if (row.signing.status === "draft") return null;
  if (now.getTime() - row.session.lastSeenAt.getTime() >= TOUCH_INTERVAL_MS) {
    await db.update(signerSessions).set({ lastSeenAt: now }).where(eq(signerSessions.id, row.session.id));
  }
  return row;
}
