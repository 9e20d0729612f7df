import { randomUUID } from "node:crypto";
import { and, eq, isNull } from "drizzle-orm";
import type { Db } from "@/db/client";
import { signerAccessLinks, type SigningPackage } from "@/db/schema";
import { getEnv } from "@/lib/env";
import { accessLinkToken, sha256Hex } from "@/lib/security/secrets";

const COMPLETED_LINK_MS = 30 * 86_400_000;

/** The URL of an access link: `{APP_URL}/access/<token>`. */
export function accessLinkUrl(token: string): string {
  return `${getEnv().APP_URL.replace(/\/+$/, "")}/access/${token}`;
}

/** The URL of the access link `linkId` (its token computed again, see `accessLinkToken`). */
export function accessLinkUrlOf(linkId: string): string {
  return accessLinkUrl(accessLinkToken(linkId));
}

/**
 * Issues a new access link for one signer of a package, inside the caller's transaction: the
 * signer's older links are revoked (superseded), the new one expires with the package. Returns the
 * link's id: the job that mails or texts it computes the URL when it sends it (`accessLinkUrlOf`),
 * so the token is in no job payload; only its SHA-256 is stored.
 */
export async function issueAccessLinkId(
  db: Db,
  options: { signing: Pick<SigningPackage, "id" | "expiresAt" | "status">; signerId: string; now?: Date },
): Promise<string> {
  const now = options.now ?? new Date();
  await db
    .update(signerAccessLinks)
    .set({ revokedAt: now })
    .where(and(eq(signerAccessLinks.signerId, options.signerId), isNull(signerAccessLinks.revokedAt)));
  const id = randomUUID();
  await db.insert(signerAccessLinks).values({
    id,
    packageId: options.signing.id,
    signerId: options.signerId,
    tokenHash: sha256Hex(accessLinkToken(id)),
    // A completed package has no expiry left to follow: its links (to the sealed copies) last 30 days.
    expiresAt: options.signing.status === "completed" ? new Date(now.getTime() + COMPLETED_LINK_MS) : options.signing.expiresAt,
  });
  return id;
}

/** `issueAccessLinkId`, returning the URL itself (for a caller that hands it over at once). */
export async function issueAccessLink(
  db: Db,
  options: { signing: Pick<SigningPackage, "id" | "expiresAt" | "status">; signerId: string; now?: Date },
): Promise<string> {
  return accessLinkUrlOf(await issueAccessLinkId(db, options));
}
