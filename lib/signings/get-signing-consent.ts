import type { Db } from "@/db/client";
import { requireCapability, type Principal } from "@/lib/auth/principal";
import { getSignerAssignmentOrThrow } from "@/lib/packages/get-signer-assignment-or-throw";
import { findConsentEntry } from "@/lib/packages/find-consent-entry";
import { serializeSigningConsent, type SigningConsent } from "./serialize-signing-consent";

export type GetSigningConsentOptions = { principal: Principal; packageId: string };

/**
 * The caller's recorded consent to sign this package electronically (from its audit trail), or
 * null when they have not accepted the disclosure yet. 404 when the package is not theirs.
 */
export async function getSigningConsent(db: Db, options: GetSigningConsentOptions): Promise<SigningConsent | null> {
  requireCapability(options.principal, "signer:signings:read", "You do not have permission to read signing packages.");
  const { signing, signer } = await getSignerAssignmentOrThrow(db, options);
  const entry = await findConsentEntry(db, { packageId: signing.id, signerId: signer.id });
  return entry ? serializeSigningConsent(entry) : null;
}
