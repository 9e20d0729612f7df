import type { Db } from "@/db/client";
import { recordAuditEntry } from "@/lib/audit/record-audit-entry";
import { requireCapability, type Principal } from "@/lib/auth/principal";
import { Conflict } from "@/lib/errors";
import { getSigningOrThrow } from "@/lib/packages/get-signing-or-throw";
import { revokeLiveAgentLinks } from "./issue-agent-link";

/**
 * Revokes the package's settlement agent link and ends the session opened from it (409 when there is
 * no live link). Audit entry `settlement_agent.link_revoked`.
 */
export async function revokeAgentLink(db: Db, options: { principal: Principal; packageId: string; ipAddress?: string | null }): Promise<void> {
  requireCapability(options.principal, "signings:write", "You do not have permission to manage signing packages.");
  await db.transaction(async (tx) => {
    const signing = await getSigningOrThrow(tx, { ...options, capability: "signings:write", lock: true });
    const revoked = await revokeLiveAgentLinks(tx, signing.id, new Date());
    if (revoked.length === 0) throw Conflict("This package has no settlement agent link to revoke.");
    for (const link of revoked) {
      await recordAuditEntry(tx, {
        organizationId: signing.organizationId,
        packageId: signing.id,
        actorUserId: options.principal.user.id,
        action: "settlement_agent.link_revoked",
        entityType: "settlement_agent_link",
        entityId: link.id,
        ipAddress: options.ipAddress,
        before: { agentName: link.agentName, agentEmail: link.agentEmail, usedAt: link.usedAt?.toISOString() ?? null },
      });
    }
  });
}
