import { and, eq, inArray } from "drizzle-orm";
import type { Db } from "@/db/client";
import { packageSigners, type SigningPackage } from "@/db/schema";
import { requireCapability, type Principal } from "@/lib/auth/principal";
import { borrowerEmailBranding } from "@/lib/branding/borrower-email-branding";
import { sendEmailDeclaration } from "@/lib/email/send-email-payload";
import { cancelledEmail } from "@/lib/email/templates/cancelled-email";
import { organizationDefaultLanguage, signerLocale } from "@/lib/i18n/signer-locale";
import { enqueueJob } from "@/lib/jobs/enqueue-job";
import { getSigningOrThrow } from "@/lib/packages/get-signing-or-throw";
import { transitionSigning } from "@/lib/package-lifecycle/transition-signing";

/**
 * Cancels a draft, sent or in-progress package; 409 "already cancelled" or when it has finished.
 * Signers who were invited and have not finished are told by email (one idempotent job each).
 */
export async function cancelSigning(
  db: Db,
  options: { principal: Principal; packageId: string; reason?: string; ipAddress?: string | null },
): Promise<SigningPackage> {
  requireCapability(options.principal, "signings:write", "You do not have permission to cancel signing packages.");
  return db.transaction(async (tx) => {
    const before = await getSigningOrThrow(tx, { ...options, capability: "signings:write", lock: true });
    const invited = await tx
      .select()
      .from(packageSigners)
      .where(and(eq(packageSigners.packageId, before.id), inArray(packageSigners.status, ["notified", "viewed"])));
    const after = await transitionSigning(
      tx,
      before,
      "cancelled",
      { actorUserId: options.principal.user.id, ipAddress: options.ipAddress, details: { notifiedSignerIds: invited.map((s) => s.id) } },
      { cancelReason: options.reason ?? null },
    );
    const brand = invited.length ? await borrowerEmailBranding(tx, before.organizationId) : undefined;
    const organizationLanguage = invited.length ? await organizationDefaultLanguage(tx, before.organizationId) : null;
    for (const signer of invited) {
      const email = cancelledEmail({
        signerName: signer.name,
        signingTitle: before.title,
        reason: options.reason ?? null,
        branding: brand?.branding,
        locale: signerLocale(signer, organizationLanguage),
      });
      await enqueueJob(tx, sendEmailDeclaration, { to: signer.email, ...email, ...brand?.sender }, { idempotencyKey: `signing-cancelled:${before.id}:${signer.id}` });
    }
    return after;
  });
}
