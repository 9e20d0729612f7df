import type { SigningPackage } from "@/db/schema";
import { iso } from "@/lib/iso";

export type SigningJson = ReturnType<typeof serializeSigning>;

export function serializeSigning(p: SigningPackage) {
  return {
    id: p.id,
    organizationId: p.organizationId,
    companyId: p.companyId,
    locationId: p.locationId,
    title: p.title,
    status: p.status,
    templateId: p.templateId,
    flowId: p.flowId,
    message: p.message,
    signerAuthMethod: p.signerAuthMethod,
    createdByUserId: p.createdByUserId,
    sentAt: iso(p.sentAt),
    completedAt: iso(p.completedAt),
    cancelledAt: iso(p.cancelledAt),
    cancelReason: p.cancelReason,
    declinedAt: iso(p.declinedAt),
    expiresAt: iso(p.expiresAt),
    createdAt: p.createdAt.toISOString(),
    updatedAt: p.updatedAt.toISOString(),
  };
}
