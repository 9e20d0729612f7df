import type { Db } from "@/db/client";
import { signerSessions, type SignerSession } from "@/db/schema";
import { SIGNER_SESSION_MAX_MS } from "./rules";
import { newOpaqueToken, sha256Hex } from "@/lib/security/secrets";

/**
 * A new signer session for one signer of one package, from a used link: the value for the cookie
 * (only its SHA-256 is stored) and the row, ending SIGNER_SESSION_MAX_MS from `now`. The caller passes
 * its transaction and records how the session came to be (an emailed link, the lender's desk).
 */
export async function createSignerSession(
  tx: Db,
  options: { packageId: string; signerId: string; linkId: string; now: Date; ipAddress?: string | null; userAgent?: string | null },
): Promise<{ session: SignerSession; sessionValue: string; expiresAt: Date }> {
  const sessionValue = newOpaqueToken();
  const expiresAt = new Date(options.now.getTime() + SIGNER_SESSION_MAX_MS);
  const [session] = await tx
    .insert(signerSessions)
    .values({
      sessionHash: sha256Hex(sessionValue),
      packageId: options.packageId,
      signerId: options.signerId,
      linkId: options.linkId,
      lastSeenAt: options.now,
      expiresAt,
      ipAddress: options.ipAddress ?? null,
      userAgent: options.userAgent?.slice(0, 500) ?? null,
    })
    .returning();
  return { session: session!, sessionValue, expiresAt };
}
