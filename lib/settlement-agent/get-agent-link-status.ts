import { desc, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { settlementAgentLinks } from "@/db/schema";
import { requireCapability, type Principal } from "@/lib/auth/principal";
import { getSigningOrThrow } from "@/lib/packages/get-signing-or-throw";

/** `sent`: not opened yet; `opened`: exchanged for a session; `expired`, `revoked`: no longer works. */
export type AgentLinkState = "sent" | "opened" | "expired" | "revoked";

export type AgentLinkStatus = {
  id: string;
  agentName: string;
  agentEmail: string;
  state: AgentLinkState;
  issuedAt: Date;
  expiresAt: Date;
  openedAt: Date | null;
  revokedAt: Date | null;
};

/** The package's latest settlement agent link as its managers see it (never the token), or null when none was issued. */
export async function getAgentLinkStatus(db: Db, options: { principal: Principal; packageId: string; now?: Date }): Promise<AgentLinkStatus | null> {
  requireCapability(options.principal, "signings:read", "You do not have permission to read signing packages.");
  const signing = await getSigningOrThrow(db, { ...options, capability: "signings:read" });
  const [link] = await db
    .select()
    .from(settlementAgentLinks)
    .where(eq(settlementAgentLinks.packageId, signing.id))
    .orderBy(desc(settlementAgentLinks.createdAt), desc(settlementAgentLinks.id))
    .limit(1);
  if (!link) return null;
  const now = options.now ?? new Date();
  const state: AgentLinkState = link.revokedAt ? "revoked" : link.expiresAt <= now ? "expired" : link.usedAt ? "opened" : "sent";
  return {
    id: link.id,
    agentName: link.agentName,
    agentEmail: link.agentEmail,
    state,
    issuedAt: link.createdAt,
    expiresAt: link.expiresAt,
    openedAt: link.usedAt,
    revokedAt: link.revokedAt,
  };
}
