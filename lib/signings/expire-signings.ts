import { and, asc, eq, inArray, lte } from "drizzle-orm";
import type { Db } from "@/db/client";
import { signingPackages, users, type SigningPackage } from "@/db/schema";
import { recordAuditEntry } from "@/lib/audit/record-audit-entry";
import { sendEmailJob } from "@/lib/email/send-email-job";
import { log } from "@/lib/log";
import { enqueueJob } from "@/lib/jobs/enqueue-job";
import { serializeSigning } from "./serialize-signing";
import { canTransition } from "./state-machine";

const EXPIRABLE = ["sent", "in_progress"] as const;

export type ExpireSigningsOptions = {
  /** Packages whose `expires_at` is at or before this instant expire; default the current time. */
  now?: Date;
  /** Most packages looked at in this call (oldest deadline first); default 100. */
  limit?: number;
};

/**
 * The expiry sweep (ARCHITECTURE §5): every `sent` or `in_progress` package whose `expires_at` has
 * passed becomes `expired`, one transaction per package with a `signing.expired` audit entry (no
 * actor) and a `send-email` job telling the creator (key `signing-expired:<id>`). Returns the ids it
 * expired.
 *
 * Exactly once: the package row is locked with `FOR UPDATE SKIP LOCKED` and the state and deadline
 * are re-checked under the lock, so a concurrent sweeper (or a signer or manager holding the row)
 * makes this sweep skip the package rather than wait; one that already committed `expired` leaves
 * nothing to match. A skipped package is picked up by the next sweep.
 *
 * Signers and signature requests are left as they are: the package state is what closes signing
 * (`recordESignature` answers 409), and the trail keeps who had or had not signed at the deadline.
 *
 * A package that fails (for example an unusable creator address) is logged and the others still
 * expire; the call then throws, so the job records the error and retries.
 */
export async function expireSignings(db: Db, options: ExpireSigningsOptions = {}): Promise<string[]> {
  const now = options.now ?? new Date();
  const candidates = await db
    .select({ id: signingPackages.id })
    .from(signingPackages)
    .where(isDue(now))
    .orderBy(asc(signingPackages.expiresAt), asc(signingPackages.id))
    .limit(options.limit ?? 100);

  const expired: string[] = [];
  const failed: string[] = [];
  for (const { id } of candidates) {
    try {
      if (await expireOne(db, id, now)) expired.push(id);
    } catch (error) {
      failed.push(id);
      log.error("signing expiry failed", { signingId: id, error });
    }
  }
  if (failed.length > 0) {
    throw new Error(`Could not expire ${failed.length} signing package(s) (${failed.join(", ")}); expired ${expired.length}.`);
  }
  return expired;
}

function isDue(now: Date) {
  return and(inArray(signingPackages.status, EXPIRABLE), lte(signingPackages.expiresAt, now));
}

async function expireOne(db: Db, id: string, now: Date): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [before] = await tx
      .select()
      .from(signingPackages)
      .where(and(eq(signingPackages.id, id), isDue(now)))
      .for("update", { skipLocked: true });
    if (!before || !canTransition(before.status, "expired")) return false;

    const [after] = await tx
      .update(signingPackages)
      .set({ status: "expired", updatedAt: new Date() })
      .where(eq(signingPackages.id, id))
      .returning();

    const [creator] = before.createdByUserId
      ? await tx.select({ id: users.id, email: users.email, name: users.name }).from(users).where(eq(users.id, before.createdByUserId))
      : [];
    if (creator) {
      await enqueueJob(
        tx,
        sendEmailJob,
        { to: creator.email, subject: `Expired: ${before.title}`.slice(0, 500), text: expiredEmailText(before, creator.name) },
        { idempotencyKey: `signing-expired:${id}` },
      );
    }

    await recordAuditEntry(tx, {
      organizationId: before.organizationId,
      packageId: id,
      actorUserId: null,
      action: "signing.expired",
      entityType: "signing_package",
      entityId: id,
      before: serializeSigning(before),
      after: { ...serializeSigning(after!), notifiedUserIds: creator ? [creator.id] : [] },
    });
    return true;
  });
}

function expiredEmailText(signing: SigningPackage, name: string): string {
  return [
    `Hello ${name},`,
    "",
    `The signing package "${signing.title}" expired on ${signing.expiresAt!.toISOString()} before every signer had signed.`,
    "It can no longer be signed. Create and send a new package if it is still needed.",
  ].join("\n");
}
