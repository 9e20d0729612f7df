import type { Db } from "@/db/client";
import { recordAuditEntry } from "@/lib/audit/record-audit-entry";
import type { Principal } from "@/lib/auth/principal";
import { getTablePacket } from "@/lib/closings/get-table-packet";
import { getSigningOrThrow } from "@/lib/packages/get-signing-or-throw";
import { auditActorOf } from "@/lib/auth/agent-session-principal";

/**
 * The table packet for a settlement agent session (`getTablePacket`, the managers' one), with the
 * download in the package's audit trail as the agent (`settlement_agent.packet_downloaded`).
 */
export async function downloadAgentTablePacket(
  db: Db,
  options: { principal: Principal; packageId: string; ipAddress?: string | null },
): Promise<{ filename: string; content: Uint8Array }> {
  const packet = await getTablePacket(db, options);
  if (options.principal.agentSession) {
    const signing = await getSigningOrThrow(db, { ...options, capability: "scanbacks:read" });
    await db.transaction((tx) =>
      recordAuditEntry(tx, {
        organizationId: signing.organizationId,
        packageId: signing.id,
        actorUserId: null,
        action: "settlement_agent.packet_downloaded",
        entityType: "signing_package",
        entityId: signing.id,
        ipAddress: options.ipAddress,
        after: { ...auditActorOf(options.principal), filename: packet.filename, sizeBytes: packet.content.byteLength },
      }),
    );
  }
  return packet;
}
