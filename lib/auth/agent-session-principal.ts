import type { SettlementAgentLink } from "@/db/schema";
import { NO_ACCOUNT_USER_ID, type Principal } from "@/lib/auth/principal";

/**
 * The narrow principal of a settlement agent's session: no roles, no account (the nil user id, which
 * no row has), only the scanback capabilities (table packet, report, upload), and `agentSession`,
 * which `getSigningOrThrow` lets reach exactly its one package. Accepting, rejecting, assigning,
 * attaching and every manager page need capabilities it does not hold.
 */
export function agentSessionPrincipal(link: Pick<SettlementAgentLink, "id" | "packageId" | "agentName" | "agentEmail">): Principal {
  return {
    user: { id: NO_ACCOUNT_USER_ID, email: link.agentEmail, name: link.agentName, authProvider: "local" },
    roles: [],
    capabilities: ["scanbacks:read", "scanbacks:write"],
    agentSession: { linkId: link.id, packageId: link.packageId, agentName: link.agentName },
  };
}

/** What an audit entry's `after` carries to name a settlement agent as the actor (nothing for anyone else). */
export function auditActorOf(principal: Principal): { actor?: { type: "settlement_agent"; name: string; linkId: string } } {
  const agent = principal.agentSession;
  return agent ? { actor: { type: "settlement_agent", name: agent.agentName, linkId: agent.linkId } } : {};
}
