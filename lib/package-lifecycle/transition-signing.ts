import { and, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { signingPackages, type NewSigningPackage, type SigningPackage, type SigningStatus } from "@/db/schema";
import { recordAuditEntry } from "@/lib/audit/record-audit-entry";
import { Conflict } from "@/lib/errors";
import { requestPackageSeal } from "@/lib/seals/request-package-seal";
import { revokeSignerAccess } from "@/lib/signer-access/revoke-signer-access";
import { serializeSigning } from "@/lib/packages/serialize-signing";
import { assertTransition, signingStatusLabel } from "@/lib/packages/state-machine";

export type TransitionAudit = {
  /** Who moved it; `null` for the system (the expiry sweep). */
  actorUserId: string | null;
  ipAddress?: string | null;
  /** Extra facts for the entry's `after` (e.g. the signers told by email). */
  details?: Record<string, unknown>;
};

/** Columns that change with the move besides the status, and the instant it happens (default now). */
export type TransitionChanges = Pick<NewSigningPackage, "expiresAt" | "cancelReason"> & { at?: Date };

const STAMP: Partial<Record<SigningStatus, "sentAt" | "completedAt" | "cancelledAt" | "declinedAt">> = {
  sent: "sentAt",
  completed: "completedAt",
  cancelled: "cancelledAt",
  declined: "declinedAt",
};

/**
 * The one way a signing package changes state: asserts `signing.status → to` against the state
 * machine (409), updates the row only if it is still in the state the caller read (so a concurrent
 * move that committed first makes this one lose with 409 instead of overwriting it), stamps the
 * state's timestamp, and appends the `signing.<to>` audit entry with the package before and after;
 * a move to `completed` also requests the package's seal (`requestPackageSeal`); a move to cancelled,
 * declined or expired revokes the package's signer access links (and, but for a decline, sessions).
 * Run it inside the caller's transaction, ideally with the row already locked.
 */
export async function transitionSigning(
  tx: Db,
  signing: SigningPackage,
  to: SigningStatus,
  audit: TransitionAudit,
  changes: TransitionChanges = {},
): Promise<SigningPackage> {
  assertTransition(signing.status, to);
  const { at: now = new Date(), ...columns } = changes;
  const stamp = STAMP[to];
  const [after] = await tx
    .update(signingPackages)
    .set({ ...columns, status: to, updatedAt: now, ...(stamp ? { [stamp]: now } : {}) })
    .where(and(eq(signingPackages.id, signing.id), eq(signingPackages.status, signing.status)))
    .returning();
  if (!after) {
    throw Conflict(`The signing package is no longer ${signingStatusLabel(signing.status)}; it changed meanwhile. Reload it and try again.`);
  }
  const entry = await recordAuditEntry(tx, {
    organizationId: signing.organizationId,
    packageId: signing.id,
    actorUserId: audit.actorUserId,
    action: `signing.${to}`,
    entityType: "signing_package",
    entityId: signing.id,
    ipAddress: audit.ipAddress,
    before: serializeSigning(signing),
    after: { ...serializeSigning(after), ...audit.details },
  });
  // Completion anchors the audit head it just wrote and starts sealing, in the same transaction.
  if (to === "completed") await requestPackageSeal(tx, { packageId: signing.id, auditHeadHash: entry.hash });
  // A closed package's access links stop working; its signer sessions end too, except on a decline,
  // where the signers still see the declined screen (every signer-side write is refused there).
  if (to === "cancelled" || to === "expired" || to === "declined") {
    await revokeSignerAccess(tx, { packageId: signing.id, now, links: true, sessions: to !== "declined" });
  }
  return after;
}
