import { and, asc, eq, gt, inArray } from "drizzle-orm";
import type { Db } from "@/db/client";
import { packageSigners, type SigningPackage } from "@/db/schema";
import { recordAuditEntry } from "@/lib/audit/record-audit-entry";
import { sendEmailJob } from "@/lib/email/send-email-job";
import { getEnv } from "@/lib/env";
import { enqueueJob } from "@/lib/jobs/enqueue-job";

export type NotifyNextRoutingGroupOptions = {
  signing: SigningPackage;
  /** The routing order that has just completed. */
  afterRoutingOrder: number;
  actorUserId: string | null;
  ipAddress?: string | null;
};

/**
 * Moves the next routing group (the lowest routing order above `afterRoutingOrder` that still has
 * pending signers) to `notified` and enqueues their invitation emails, inside the caller's
 * transaction. Returns the signer ids notified.
 */
export async function notifyNextRoutingGroup(db: Db, options: NotifyNextRoutingGroupOptions): Promise<string[]> {
  const { signing } = options;
  const [next] = await db
    .select({ routingOrder: packageSigners.routingOrder })
    .from(packageSigners)
    .where(
      and(
        eq(packageSigners.packageId, signing.id),
        gt(packageSigners.routingOrder, options.afterRoutingOrder),
        eq(packageSigners.status, "pending"),
      ),
    )
    .orderBy(asc(packageSigners.routingOrder))
    .limit(1);
  if (!next) return [];
  const notified = await db
    .update(packageSigners)
    .set({ status: "notified", notifiedAt: new Date() })
    .where(
      and(
        eq(packageSigners.packageId, signing.id),
        eq(packageSigners.routingOrder, next.routingOrder),
        inArray(packageSigners.status, ["pending"]),
      ),
    )
    .returning();
  const link = `${getEnv().APP_URL.replace(/\/+$/, "")}/signings/${signing.id}`;
  for (const signer of notified) {
    await enqueueJob(
      db,
      sendEmailJob,
      {
        to: signer.email,
        subject: `Ready for your signature: ${signing.title}`.slice(0, 500),
        text: [`Hello ${signer.name},`, "", `The documents of "${signing.title}" are ready for your signature.`, "", `Open your signing package: ${link}`].join("\n"),
      },
      // The same key as the invitation of `sendSigning`: one invitation per signer, whoever sends it.
      { idempotencyKey: `signing-invite:${signing.id}:${signer.id}` },
    );
    await recordAuditEntry(db, {
      organizationId: signing.organizationId,
      packageId: signing.id,
      actorUserId: options.actorUserId,
      action: "signer.notified",
      entityType: "package_signer",
      entityId: signer.id,
      ipAddress: options.ipAddress,
      before: { status: "pending" },
      after: { status: "notified", routingOrder: signer.routingOrder },
    });
  }
  return notified.map((s) => s.id);
}
