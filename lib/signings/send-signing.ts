import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { organizations, packageDocuments, packageSigners, signatureRequests, type SigningPackage } from "@/db/schema";
import { requireCapability, type Principal } from "@/lib/auth/principal";
import { Conflict } from "@/lib/errors";
import { assertSignerProofComplete } from "@/lib/signer-access/signer-proof-gaps";
import { getSigningOrThrow } from "@/lib/packages/get-signing-or-throw";
import { notifyNextRoutingGroup } from "@/lib/package-lifecycle/notify-next-routing-group";
import { assertTransition } from "@/lib/packages/state-machine";
import { transitionSigning } from "@/lib/package-lifecycle/transition-signing";

/**
 * Sends a draft: one required signature request per signer × document, the first routing group
 * (lowest routing order; equal numbers sign in parallel) notified through `notifyNextRoutingGroup`
 * (invitation email jobs with idempotency keys, a `signer.notified` entry each), and the package
 * moved to `sent` — one transaction. A package without `expiresAt` gets `sentAt +
 * packageExpiryDays` when its organization sets that (the expiry sweep then expires it).
 */
export async function sendSigning(
  db: Db,
  options: { principal: Principal; packageId: string; ipAddress?: string | null },
): Promise<SigningPackage> {
  requireCapability(options.principal, "signings:write", "You do not have permission to send signing packages.");
  return db.transaction(async (tx) => {
    const before = await getSigningOrThrow(tx, { ...options, capability: "signings:write", lock: true });
    // Checked before the children so a package that cannot be sent says so, not "needs a signer".
    assertTransition(before.status, "sent");
    const signers = await tx
      .select({ id: packageSigners.id, name: packageSigners.name, authMethod: packageSigners.authMethod, accessCodeHash: packageSigners.accessCodeHash, phone: packageSigners.phone })
      .from(packageSigners)
      .where(eq(packageSigners.packageId, before.id));
    if (signers.length === 0) throw Conflict("A signing package needs at least one signer before it can be sent.");
    assertSignerProofComplete(
      before.signerAuthMethod,
      signers.map((s) => ({ name: s.name, authMethod: s.authMethod, hasAccessCode: s.accessCodeHash !== null, hasPhone: s.phone !== null })),
      "sending",
    );
    const documents = await tx
      .select({ id: packageDocuments.id, executionMode: packageDocuments.executionMode })
      .from(packageDocuments)
      .where(eq(packageDocuments.packageId, before.id));
    if (documents.length === 0) throw Conflict("A signing package needs at least one document before it can be sent.");

    // Only e-signed documents get signature requests; ink and review-only documents are tracked by
    // their own execution state (lib/closings).
    const esignDocuments = documents.filter((d) => d.executionMode === "esign");
    if (esignDocuments.length > 0) {
      await tx
        .insert(signatureRequests)
        .values(signers.flatMap((s) => esignDocuments.map((d) => ({ packageId: before.id, documentId: d.id, signerId: s.id, required: true }))))
        .onConflictDoNothing();
    }

    const audit = { actorUserId: options.principal.user.id, ipAddress: options.ipAddress };
    const notifiedSignerIds = await notifyNextRoutingGroup(tx, { signing: before, ...audit });
    const now = new Date();
    const expiresAt = before.expiresAt ?? (await defaultExpiry(tx, before.organizationId, now));
    return transitionSigning(
      tx,
      before,
      "sent",
      { ...audit, details: { signatureRequests: signers.length * esignDocuments.length, notifiedSignerIds } },
      { expiresAt, at: now },
    );
  });
}

async function defaultExpiry(db: Db, organizationId: number, sentAt: Date): Promise<Date | null> {
  const [org] = await db.select({ settings: organizations.settings }).from(organizations).where(eq(organizations.id, organizationId));
  const days = org?.settings.packageExpiryDays;
  // Settings are JSON; the workspace API only writes integers 1–365, but do not trust older rows.
  if (typeof days !== "number" || !Number.isInteger(days) || days < 1) return null;
  return new Date(sentAt.getTime() + days * 86_400_000);
}
