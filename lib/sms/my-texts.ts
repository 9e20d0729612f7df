import type { Db } from "@/db/client";
import { recordAuditEntry } from "@/lib/audit/record-audit-entry";
import { requireCapability, type Principal } from "@/lib/auth/principal";
import { Conflict } from "@/lib/errors";
import { getSignerAssignmentOrThrow } from "@/lib/packages/get-signer-assignment-or-throw";
import { isSmsOptedOut, recordSmsReply } from "./sms-opt-outs";

/** What the signer's page says about texts: the number's last digits and whether texts are stopped. */
export type MyTexts = { phoneEnding: string; stopped: boolean };

/**
 * The caller's texts for a package they sign: null when they are not texted (no mobile number or no
 * recorded consent); otherwise the number's last four digits and whether they stopped texts from the
 * package's organization. 404 for a package that is not theirs.
 */
export async function getMyTexts(db: Db, options: { principal: Principal; packageId: string }): Promise<MyTexts | null> {
  requireCapability(options.principal, "signer:signings:read", "You do not have permission to read signing packages.");
  const { signing, signer } = await getSignerAssignmentOrThrow(db, options);
  if (!signer.phone || !signer.smsConsentAt) return null;
  return { phoneEnding: signer.phone.slice(-4), stopped: await isSmsOptedOut(db, { organizationId: signing.organizationId, phone: signer.phone }) };
}

/**
 * "Stop text messages" on the signer's page: the same as replying STOP, for the package's
 * organization (no more texts to the number from it; emails continue). 409 when the signer is not
 * texted; stopping twice changes nothing.
 */
export async function stopMyTexts(db: Db, options: { principal: Principal; packageId: string; ipAddress?: string | null; now?: Date }): Promise<void> {
  requireCapability(options.principal, "signer:signings:read", "You do not have permission to read signing packages.");
  await db.transaction(async (tx) => {
    const { signing, signer } = await getSignerAssignmentOrThrow(tx, options);
    if (!signer.phone || !signer.smsConsentAt) throw Conflict("No text messages are sent to you for this package.");
    if (await isSmsOptedOut(tx, { organizationId: signing.organizationId, phone: signer.phone })) return;
    await recordSmsReply(tx, { phone: signer.phone, organizationIds: [signing.organizationId], action: "stop", keyword: "SIGNER_PAGE", at: options.now ?? new Date() });
    // recordSmsReply audits open packages; a signer stopping from a closed package's page is audited here.
    if (signing.status !== "sent" && signing.status !== "in_progress") {
      await recordAuditEntry(tx, {
        organizationId: signing.organizationId,
        packageId: signing.id,
        actorUserId: null,
        action: "signer.texts_stopped",
        entityType: "package_signer",
        entityId: signer.id,
        ipAddress: options.ipAddress,
        after: { keyword: "SIGNER_PAGE" },
      });
    }
  });
}
