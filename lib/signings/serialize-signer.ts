import type { PackageSigner } from "@/db/schema";
import { iso } from "@/lib/iso";

export function serializeSigner(s: PackageSigner) {
  return {
    id: s.id,
    signingId: s.packageId,
    userId: s.userId,
    name: s.name,
    email: s.email,
    role: s.role,
    routingOrder: s.routingOrder,
    status: s.status,
    notifiedAt: iso(s.notifiedAt),
    viewedAt: iso(s.viewedAt),
    signedAt: iso(s.signedAt),
    declinedAt: iso(s.declinedAt),
    declineReason: s.declineReason,
    // The access code is write-only: only whether one is set.
    authMethod: s.authMethod,
    hasAccessCode: s.accessCodeHash !== null,
    phone: s.phone,
    smsConsentAt: iso(s.smsConsentAt),
    smsConsentByUserId: s.smsConsentByUserId,
    authPassedAt: iso(s.authPassedAt),
    authPassedMethod: s.authPassedMethod,
    authFailures: s.authFailures,
    consentedAt: iso(s.consentedAt),
    language: s.language,
    createdAt: s.createdAt.toISOString(),
    updatedAt: s.updatedAt.toISOString(),
  };
}
