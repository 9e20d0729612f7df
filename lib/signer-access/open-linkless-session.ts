import type { Db } from "@/db/client";
import { signerAccessLinks, type SignerSession } from "@/db/schema";
import { createSignerSession } from "./create-signer-session";
import { newOpaqueToken, sha256Hex } from "@/lib/security/secrets";

export type LinklessSession = { session: SignerSession; sessionValue: string; expiresAt: Date };

/**
 * A signer session opened without an emailed link (at the desk, or from an embedded signing URL):
 * a session needs a link, so one is written that was never sent anywhere (its token is thrown away)
 * and is used at once. The caller records why and marks the proof passed; the returned value goes in
 * the cookie (only its SHA-256 is stored).
 */
export async function openLinklessSignerSession(
  tx: Db,
  options: { packageId: string; signerId: string; ipAddress?: string | null; userAgent?: string | null; now: Date },
): Promise<LinklessSession> {
  const { now } = options;
  const [link] = await tx
    .insert(signerAccessLinks)
    .values({ packageId: options.packageId, signerId: options.signerId, tokenHash: sha256Hex(newOpaqueToken()), usedAt: now, expiresAt: now })
    .returning();
  return createSignerSession(tx, { ...options, linkId: link!.id });
}
