import { and, eq, inArray } from "drizzle-orm";
import type { Db } from "@/db/client";
import { packageSigners, signingPackages, type SigningPackage } from "@/db/schema";
import { recordAuditEntry } from "@/lib/audit/record-audit-entry";
import { requireCapability, type Principal } from "@/lib/auth/principal";
import { sendEmailJob } from "@/lib/email/send-email-job";
import { enqueueJob } from "@/lib/jobs/enqueue-job";
import { getSigningOrThrow } from "./get-signing-or-throw";
import { serializeSigning } from "./serialize-signing";
import { assertTransition } from "./state-machine";

/**
 * Cancels a draft, sent or in-progress package; 409 "already cancelled" or when it has finished.
 * Signers who were invited and have not finished are told by email (one idempotent job each).
 */
export async function cancelSigning(
  db: Db,
  options: { principal: Principal; signingId: string; reason?: string; ipAddress?: string | null },
): Promise<SigningPackage> {
  requireCapability(options.principal, "signings:write", "You do not have permission to cancel signing packages.");
  return db.transaction(async (tx) => {
    const before = await getSigningOrThrow(tx, { ...options, capability: "signings:write", lock: true });
    assertTransition(before.status, "cancelled");
    const now = new Date();
    const [after] = await tx
      .update(signingPackages)
      .set({ status: "cancelled", cancelledAt: now, cancelReason: options.reason ?? null, updatedAt: now })
      .where(eq(signingPackages.id, before.id))
      .returning();

    const invited = await tx
      .select()
      .from(packageSigners)
      .where(and(eq(packageSigners.packageId, before.id), inArray(packageSigners.status, ["notified", "viewed"])));
    for (const signer of invited) {
      await enqueueJob(
        tx,
        sendEmailJob,
        {
          to: signer.email,
          subject: `Cancelled: ${before.title}`.slice(0, 500),
          text: [
            `Hello ${signer.name},`,
            "",
            `The signing package "${before.title}" was cancelled and no longer needs your signature.`,
            ...(options.reason ? ["", `Reason: ${options.reason}`] : []),
          ].join("\n"),
        },
        { idempotencyKey: `signing-cancelled:${before.id}:${signer.id}` },
      );
    }

    await recordAuditEntry(tx, {
      organizationId: before.organizationId,
      packageId: before.id,
      actorUserId: options.principal.user.id,
      action: "signing.cancelled",
      entityType: "signing_package",
      entityId: before.id,
      ipAddress: options.ipAddress,
      before: serializeSigning(before),
      after: { ...serializeSigning(after!), notifiedSignerIds: invited.map((s) => s.id) },
    });
    return after!;
  });
}
