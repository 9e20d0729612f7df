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
    createdAt: s.createdAt.toISOString(),
    updatedAt: s.updatedAt.toISOString(),
  };
}
