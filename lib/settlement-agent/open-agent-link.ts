import { and, eq, isNull } from "drizzle-orm";
import type { Db } from "@/db/client";
import { organizations, settlementAgentLinks, signingPackages, type SettlementAgentLink, type SigningPackage } from "@/db/schema";
import { recordAuditEntry } from "@/lib/audit/record-audit-entry";
import { brandMarkOf, getOrganizationBranding, type BrandMark } from "@/lib/branding/branding";
import { isOpaqueTokenShape, newOpaqueToken, sha256Hex } from "@/lib/security/secrets";
import { isOpenSigningStatus } from "@/lib/packages/state-machine";
import { AGENT_SESSION_MAX_MS } from "./rules";

type LinkRow = { link: SettlementAgentLink; signing: SigningPackage };

/** A link works once, while not revoked, before its expiry, while its package is open (sent or in progress). */
function usable({ link, signing }: LinkRow, now: Date): boolean {
  return !link.usedAt && !link.revokedAt && link.expiresAt > now && isOpenSigningStatus(signing.status);
}

async function findLink(db: Db, token: string, lock = false): Promise<LinkRow | null> {
  if (!isOpaqueTokenShape(token)) return null;
  const query = db
    .select({ link: settlementAgentLinks, signing: signingPackages })
    .from(settlementAgentLinks)
    .innerJoin(signingPackages, eq(signingPackages.id, settlementAgentLinks.packageId))
    .where(eq(settlementAgentLinks.tokenHash, sha256Hex(token)))
    .limit(1);
  const [row] = lock ? await query.for("update", { of: settlementAgentLinks }) : await query;
  return row ?? null;
}

/** What the link's page (GET) shows; reading it changes nothing (mail scanners prefetch links). */
export type AgentLinkView =
  | { state: "open"; title: string; lenderName: string; agentName: string; brand: BrandMark }
  /** Used, expired, revoked, superseded, the package closed, or unknown: one answer. */
  | { state: "unusable" };

export async function viewAgentLink(db: Db, options: { token: string; now?: Date }): Promise<AgentLinkView> {
  const row = await findLink(db, options.token);
  if (!row || !usable(row, options.now ?? new Date())) return { state: "unusable" };
  const [org] = await db.select({ name: organizations.name }).from(organizations).where(eq(organizations.id, row.signing.organizationId));
  const branding = await getOrganizationBranding(db, row.signing.organizationId);
  return {
    state: "open",
    title: row.signing.title,
    lenderName: branding?.displayName ?? org?.name ?? "",
    agentName: row.link.agentName,
    brand: brandMarkOf(branding, org?.name),
  };
}

export type OpenedAgentLink = { packageId: string; sessionValue: string; expiresAt: Date };

/**
 * The link's POST: marks the link used and exchanges it for the agent's session (the returned value
 * goes into the cookie; only its SHA-256 is stored), which lasts 12 hours at most and never past the
 * link's expiry. Audit entry `settlement_agent.link_opened`. Null when the link is not usable.
 */
export async function openAgentLink(
  db: Db,
  options: { token: string; ipAddress?: string | null; userAgent?: string | null; now?: Date },
): Promise<OpenedAgentLink | null> {
  const now = options.now ?? new Date();
  return db.transaction(async (tx) => {
    const row = await findLink(tx, options.token, true);
    if (!row || !usable(row, now)) return null;
    const { link, signing } = row;
    const sessionValue = newOpaqueToken();
    const expiresAt = new Date(Math.min(now.getTime() + AGENT_SESSION_MAX_MS, link.expiresAt.getTime()));
    const claimed = await tx
      .update(settlementAgentLinks)
      .set({ usedAt: now, sessionHash: sha256Hex(sessionValue), sessionExpiresAt: expiresAt, lastSeenAt: now })
      .where(and(eq(settlementAgentLinks.id, link.id), isNull(settlementAgentLinks.usedAt), isNull(settlementAgentLinks.revokedAt)))
      .returning({ id: settlementAgentLinks.id });
    if (claimed.length === 0) return null;
    await recordAuditEntry(tx, {
      organizationId: signing.organizationId,
      packageId: signing.id,
      actorUserId: null,
      action: "settlement_agent.link_opened",
      entityType: "settlement_agent_link",
      entityId: link.id,
      ipAddress: options.ipAddress,
      after: { actor: { type: "settlement_agent", name: link.agentName, linkId: link.id }, userAgent: options.userAgent?.slice(0, 500) ?? null },
    });
    return { packageId: signing.id, sessionValue, expiresAt };
  });
}
