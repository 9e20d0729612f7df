import type { AuditEntry } from "@/db/schema";
import { iso } from "@/lib/iso";

export type AuditEntryJson = ReturnType<typeof serializeAuditEntry>;

export function serializeAuditEntry(e: AuditEntry) {
  return {
    id: e.id,
    action: e.action,
    entityType: e.entityType,
    entityId: e.entityId,
    actorUserId: e.actorUserId,
    ipAddress: e.ipAddress,
    before: e.before ?? null,
    after: e.after ?? null,
    prevHash: e.prevHash,
    hash: e.hash,
    createdAt: iso(e.createdAt),
  };
}
