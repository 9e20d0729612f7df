import { and, eq, inArray } from "drizzle-orm";
import type { Db } from "@/db/client";
import { organizations, packageDocuments, packageSigners, signatureRequests, signingPackages, type SigningPackage } from "@/db/schema";
import { recordAuditEntry } from "@/lib/audit/record-audit-entry";
import { requireCapability, type Principal } from "@/lib/auth/principal";
import { sendEmailJob } from "@/lib/email/send-email-job";
import { getEnv } from "@/lib/env";
import { Conflict } from "@/lib/errors";
import { enqueueJob } from "@/lib/jobs/enqueue-job";
import { getSigningOrThrow } from "./get-signing-or-throw";
import { serializeSigning } from "./serialize-signing";
import { assertTransition } from "./state-machine";

/** The link a signer follows from the invitation email. */
function signingLink(signingId: string): string {
  return `${getEnv().APP_URL.replace(/\/+$/, "")}/signings/${signingId}`;
}

/**
 * Sends a draft: one required signature request per signer × document, the first routing group
 * (lowest routing order; equal numbers sign in parallel) marked `notified`, and one `send-email`
 * job per notified signer, all in the transaction that moves the package to `sent`. The jobs carry
 * idempotency keys, so the invitation goes out once even if the job is retried. A package without
 * `expiresAt` gets `sentAt + packageExpiryDays` when its organization sets that (the expiry sweep
 * then expires it).
 */
export async function sendSigning(
  db: Db,
  options: { principal: Principal; signingId: string; ipAddress?: string | null },
): Promise<SigningPackage> {
  requireCapability(options.principal, "signings:write", "You do not have permission to send signing packages.");
  return db.transaction(async (tx) => {
    const before = await getSigningOrThrow(tx, { ...options, capability: "signings:write", lock: true });
    assertTransition(before.status, "sent");
    const signers = await tx.select().from(packageSigners).where(eq(packageSigners.packageId, before.id));
    if (signers.length === 0) throw Conflict("A signing package needs at least one signer before it can be sent.");
    const documents = await tx
      .select({ id: packageDocuments.id })
      .from(packageDocuments)
      .where(eq(packageDocuments.packageId, before.id));
    if (documents.length === 0) throw Conflict("A signing package needs at least one document before it can be sent.");

    await tx
      .insert(signatureRequests)
      .values(signers.flatMap((s) => documents.map((d) => ({ packageId: before.id, documentId: d.id, signerId: s.id, required: true }))))
      .onConflictDoNothing();

    const now = new Date();
    const expiresAt = before.expiresAt ?? (await defaultExpiry(tx, before.organizationId, now));
    const firstGroup = Math.min(...signers.map((s) => s.routingOrder));
    const notified = await tx
      .update(packageSigners)
      .set({ status: "notified", notifiedAt: now, updatedAt: now })
      .where(and(eq(packageSigners.packageId, before.id), eq(packageSigners.routingOrder, firstGroup), inArray(packageSigners.status, ["pending"])))
      .returning();
    const [after] = await tx
      .update(signingPackages)
      .set({ status: "sent", sentAt: now, expiresAt, updatedAt: now })
      .where(eq(signingPackages.id, before.id))
      .returning();

    const link = signingLink(before.id);
    for (const signer of notified) {
      await enqueueJob(
        tx,
        sendEmailJob,
        {
          to: signer.email,
          subject: `Please sign: ${before.title}`.slice(0, 500),
          text: [`Hello ${signer.name},`, "", before.message ?? "You have documents to review and sign.", "", `Open your signing package: ${link}`].join("\n"),
        },
        { idempotencyKey: `signing-invite:${before.id}:${signer.id}` },
      );
    }

    await recordAuditEntry(tx, {
      organizationId: before.organizationId,
      packageId: before.id,
      actorUserId: options.principal.user.id,
      action: "signing.sent",
      entityType: "signing_package",
      entityId: before.id,
      ipAddress: options.ipAddress,
      before: serializeSigning(before),
      after: {
        ...serializeSigning(after!),
        signatureRequests: signers.length * documents.length,
        notifiedSignerIds: notified.map((s) => s.id),
      },
    });
    return after!;
  });
}

async function defaultExpiry(db: Db, organizationId: number, sentAt: Date): Promise<Date | null> {
  const [org] = await db.select({ settings: organizations.settings }).from(organizations).where(eq(organizations.id, organizationId));
  const days = org?.settings.packageExpiryDays;
  // Settings are JSON; the workspace API only writes integers 1–365, but do not trust older rows.
  if (typeof days !== "number" || !Number.isInteger(days) || days < 1) return null;
  return new Date(sentAt.getTime() + days * 86_400_000);
}
