import { iso } from "@/lib/iso";
import type { AssignedSigning } from "./list-assigned-signings";

export type AssignedSigningJson = ReturnType<typeof serializeAssignedSigning>;

/** A package in the signer's list, with the caller's own signer row as `me`. */
export function serializeAssignedSigning(p: AssignedSigning) {
  return {
    id: p.id,
    organizationId: p.organizationId,
    title: p.title,
    status: p.status,
    sentAt: iso(p.sentAt),
    completedAt: iso(p.completedAt),
    createdAt: iso(p.createdAt),
    updatedAt: iso(p.updatedAt),
    me: p.me,
  };
}
