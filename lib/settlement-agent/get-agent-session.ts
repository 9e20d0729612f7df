import { and, eq, isNull } from "drizzle-orm";
import type { Db } from "@/db/client";
import { settlementAgentLinks, signingPackages, type SettlementAgentLink, type SigningPackage } from "@/db/schema";
import { isUuid } from "@/lib/ids";
import { sha256Hex } from "@/lib/security/secrets";
import { isOpenSigningStatus } from "@/lib/packages/state-machine";
import { AGENT_SESSION_IDLE_MS } from "./rules";

export type AgentSessionContext = { link: SettlementAgentLink; signing: SigningPackage };

/** Writes of `last_seen_at` are skipped within this interval (every page load would write otherwise). */
const TOUCH_INTERVAL_MS = 60_000;

/**
 * The live agent session behind a cookie value for one package, or null: unknown, revoked (a newer
 * link, or the manager revoked it), idle for 2 hours, past its end, for another package, or the
 * package no longer open. Refreshes its idle clock.
 */
export async function getAgentSession(db: Db, options: { packageId: string; value: string | undefined | null; now?: Date }): Promise<AgentSessionContext | null> {
  const now = options.now ?? new Date();
  if (!options.value || options.value.length > 100 || !isUuid(options.packageId)) return null;
  const [row] = await db
    .select({ link: settlementAgentLinks, signing: signingPackages })
    .from(settlementAgentLinks)
    .innerJoin(signingPackages, eq(signingPackages.id, settlementAgentLinks.packageId))
    .where(
      and(
        eq(settlementAgentLinks.sessionHash, sha256Hex(options.value)),
        eq(settlementAgentLinks.packageId, options.packageId),
        isNull(settlementAgentLinks.revokedAt),
      ),
    )
    .limit(1);
  if (!row?.link.sessionExpiresAt || !row.link.lastSeenAt) return null;
  if (row.link.sessionExpiresAt <= now || row.link.expiresAt <= now) return null;
  if (now.getTime() - row.link.lastSeenAt.getTime() >= AGENT_SESSION_IDLE_MS) return null;
  if (!isOpenSigningStatus(row.signing.status)) return null;
  if (now.getTime() - row.link.lastSeenAt.getTime() >= TOUCH_INTERVAL_MS) {
    await db.update(settlementAgentLinks).set({ lastSeenAt: now }).where(eq(settlementAgentLinks.id, row.link.id));
  }
  return row;
}
