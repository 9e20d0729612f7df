import { and, asc, eq, inArray } from "drizzle-orm";
import type { Db } from "@/db/client";
import { packageSigners } from "@/db/schema";
import { recordAuditEntry } from "@/lib/audit/record-audit-entry";
import { requireCapability, type Principal } from "@/lib/auth/principal";
import { sendEmailDeclaration } from "@/lib/email/send-email-payload";
import { Conflict } from "@/lib/errors";
import { enqueueJob } from "@/lib/jobs/enqueue-job";
import { issueAccessLinkId } from "@/lib/signer-access/issue-access-link";
import { queueSignerSms } from "@/lib/sms/queue-signer-sms";
import { getSigningOrThrow } from "@/lib/packages/get-signing-or-throw";
import { isOpenSigningStatus } from "@/lib/packages/state-machine";

/** One reminder per signer per window: a double click or a script's retry sends nothing twice. */
export const REMINDER_WINDOW_MS = 60 * 60 * 1000;

export type RemindSignersResult = {
  /** Signers emailed now. */
  remindedSignerIds: string[];
  /** Signers of the current group already reminded within the window, so not emailed again. */
  alreadyRemindedSignerIds: string[];
};

/**
 * Emails the signers whose turn it is (invited, not yet signed or declined) of a sent or in-progress
 * package with the reminder template, and writes `signer.reminded` for each one emailed. At most one
 * reminder per signer per hour (the job's idempotency key carries the hour).
 */
const ALREADY_REMINDED = new Error("already reminded this hour");

export async function remindSigners(
  db: Db,
  options: { principal: Principal; packageId: string; ipAddress?: string | null; now?: Date },
): Promise<RemindSignersResult> {
  requireCapability(options.principal, "signings:write", "You do not have permission to send reminders.");
  const now = options.now ?? new Date();
  return db.transaction(async (tx) => {
    const signing = await getSigningOrThrow(tx, { ...options, capability: "signings:write", lock: true });
    if (!isOpenSigningStatus(signing.status)) {
      throw Conflict(`Only a sent or in-progress package can be reminded; this one is ${signing.status.replace("_", " ")}.`);
    }
    const waiting = await tx
      .select()
      .from(packageSigners)
      .where(and(eq(packageSigners.packageId, signing.id), inArray(packageSigners.status, ["notified", "viewed"])))
      .orderBy(asc(packageSigners.routingOrder), asc(packageSigners.id));
    const window = Math.floor(now.getTime() / REMINDER_WINDOW_MS);
    const result: RemindSignersResult = { remindedSignerIds: [], alreadyRemindedSignerIds: [] };
    for (const signer of waiting) {
      // A new access link supersedes the signer's older ones, so it is issued in a savepoint that
      // is rolled back when this hour's reminder was already queued (nothing is revoked then).
      const created = await tx
        .transaction(async (sp) => {
          const linkId = await issueAccessLinkId(sp, { signing, signerId: signer.id, now });
          const idempotencyKey = `signing-reminder:${signing.id}:${signer.id}:${window}`;
          // Rendered (and the link's URL computed) when the job sends it: no link in the payload.
          const senderName = options.principal.user.name.trim().slice(0, 200) || undefined;
          const job = await enqueueJob(sp, sendEmailDeclaration, { message: "signer-reminder", linkId, senderName }, { idempotencyKey });
          if (!job.created) throw ALREADY_REMINDED;
          // The same reminder by text, with the same new link, when the signer agreed to texts.
          await queueSignerSms(sp, { signing, signer, kind: "reminder", linkId, idempotencyKey });
          return true;
        })
        .catch((error: unknown) => {
          if (error === ALREADY_REMINDED) return false;
          throw error;
        });
      if (!created) {
        result.alreadyRemindedSignerIds.push(signer.id);
        continue;
      }
      result.remindedSignerIds.push(signer.id);
      await recordAuditEntry(tx, {
        organizationId: signing.organizationId,
        packageId: signing.id,
        actorUserId: options.principal.user.id,
        action: "signer.reminded",
        entityType: "package_signer",
        entityId: signer.id,
        ipAddress: options.ipAddress,
        before: null,
        after: { status: signer.status, routingOrder: signer.routingOrder },
      });
    }
    return result;
  });
}
