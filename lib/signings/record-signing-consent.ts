import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { packageSigners } from "@/db/schema";
import { recordAuditEntry } from "@/lib/audit/record-audit-entry";
import { requireCapability, type Principal } from "@/lib/auth/principal";
import { Conflict } from "@/lib/errors";
import type { Locale } from "@/lib/i18n/locales";
import { actorUserIdOf } from "@/lib/signer-access/signer-session-principal";
import { getSignerAssignmentOrThrow } from "@/lib/packages/get-signer-assignment-or-throw";
import { findConsentEntry, SIGNER_CONSENTED } from "@/lib/packages/find-consent-entry";
import { serializeSigningConsent, type SigningConsent } from "./serialize-signing-consent";
import { isOpenSigningStatus, signingStatusLabel } from "@/lib/packages/state-machine";

export type RecordSigningConsentOptions = {
  principal: Principal;
  packageId: string;
  /** Which text of the disclosure the signer accepted (`ESIGN_DISCLOSURE_VERSION`). */
  disclosureVersion: string;
  /** The language the disclosure was shown in (`en`, `es`); English when not given (/v1 callers). */
  disclosureLanguage?: Locale;
  ipAddress?: string | null;
  userAgent?: string | null;
};

export type RecordSigningConsentResult = { consent: SigningConsent; created: boolean };

/**
 * Records that the caller accepted the electronic-records disclosure for this package: one
 * `signer.consented` audit entry (time, IP, user agent, disclosure version and language) per signer and package,
 * and the time on the signer row (the one consent record the certificate reads; /v1's e-signature
 * with `consent: true` writes it too).
 * A repeat returns the first acceptance with `created: false`. The package row is locked first, like
 * every signer-side write, so two tabs accepting together still leave one entry.
 */
export async function recordSigningConsent(db: Db, options: RecordSigningConsentOptions): Promise<RecordSigningConsentResult> {
  requireCapability(options.principal, "signer:esignatures:write", "You do not have permission to sign packages.");
  return db.transaction(async (tx) => {
    const { signing, signer } = await getSignerAssignmentOrThrow(tx, { ...options, lock: true });
    const existing = await findConsentEntry(tx, { packageId: signing.id, signerId: signer.id });
    if (existing) return { consent: serializeSigningConsent(existing), created: false };
    if (!isOpenSigningStatus(signing.status)) {
      throw Conflict(`This signing package is ${signingStatusLabel(signing.status)}; it can no longer be signed.`, "package_closed");
    }
    if (signer.status === "declined") throw Conflict("You have declined this signing package.", "already_declined");
    if (!signer.consentedAt) {
      await tx.update(packageSigners).set({ consentedAt: new Date(), consentSource: "browser" }).where(eq(packageSigners.id, signer.id));
    }
    const entry = await recordAuditEntry(tx, {
      organizationId: signing.organizationId,
      packageId: signing.id,
      actorUserId: actorUserIdOf(options.principal),
      action: SIGNER_CONSENTED,
      entityType: "package_signer",
      entityId: signer.id,
      ipAddress: options.ipAddress,
      after: { disclosureVersion: options.disclosureVersion, disclosureLanguage: options.disclosureLanguage ?? "en", userAgent: options.userAgent ?? null },
    });
    return { consent: serializeSigningConsent(entry), created: true };
  });
}
