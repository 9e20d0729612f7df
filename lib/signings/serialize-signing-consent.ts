import type { AuditEntry } from "@/db/schema";

/** A signer's acceptance of the electronic-records disclosure, as read back from its audit entry. */
export type SigningConsent = {
  signerId: string;
  consentedAt: string;
  ipAddress: string | null;
  userAgent: string | null;
  disclosureVersion: string | null;
  /** The language the disclosure was shown in; null for consents recorded before it was kept. */
  disclosureLanguage: string | null;
};

export function serializeSigningConsent(entry: AuditEntry): SigningConsent {
  const after = (entry.after ?? {}) as { userAgent?: unknown; disclosureVersion?: unknown; disclosureLanguage?: unknown };
  return {
    signerId: entry.entityId,
    consentedAt: entry.createdAt.toISOString(),
    ipAddress: entry.ipAddress,
    userAgent: typeof after.userAgent === "string" ? after.userAgent : null,
    disclosureVersion: typeof after.disclosureVersion === "string" ? after.disclosureVersion : null,
    disclosureLanguage: typeof after.disclosureLanguage === "string" ? after.disclosureLanguage : null,
  };
}
