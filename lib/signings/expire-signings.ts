import { and, asc, eq, inArray, lte } from "drizzle-orm";
import type { Db } from "@/db/client";
import { signingPackages } from "@/db/schema";
import { sendEmailDeclaration } from "@/lib/email/send-email-payload";
import { expiredEmail } from "@/lib/email/templates/expired-email";
import { signingLink } from "@/lib/email/templates/signing-link";
import { enqueueJob } from "@/lib/jobs/enqueue-job";
import { log } from "@/lib/log";
import { getSigningCreator } from "@/lib/packages/get-signing-creator";
import { OPEN_SIGNING_STATUSES } from "@/lib/packages/state-machine";
import { transitionSigning } from "@/lib/package-lifecycle/transition-signing";

export type ExpireSigningsOptions = {
  /** Packages whose `expires_at` is at or before this instant expire; default the current time. */
  now?: Date;
  /** Most packages looked at in this call (oldest deadline first); default 100. */
  limit?: number;
};

/**
 * The expiry sweep (package states: lib/packages/state-machine.ts): every `sent` or `in_progress` package whose `expires_at` has
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
      log.error("signing expiry failed", { packageId: id, error });
    }
  }
  if (failed.length > 0) {
    throw new Error(`Could not expire ${failed.length} signing package(s) (${failed.join(", ")}); expired ${expired.length}.`);
  }
  return expired;
}

function isDue(now: Date) {
  return and(inArray(signingPackages.status, OPEN_SIGNING_STATUSES), lte(signingPackages.expiresAt, now));
}

async function expireOne(db: Db, id: string, now: Date): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [before] = await tx
      .select()
      .from(signingPackages)
      .where(and(eq(signingPackages.id, id), isDue(now)))
      .for("update", { skipLocked: true });
    if (!before) return false;

    const creator = await getSigningCreator(tx, before);
    await transitionSigning(tx, before, "expired", { actorUserId: null, details: { notifiedUserIds: creator ? [creator.id] : [] } });
    if (creator) {
      const email = expiredEmail({ recipientName: creator.name, signingTitle: before.title, expiresAt: before.expiresAt!, link: signingLink(id) });
      await enqueueJob(tx, sendEmailDeclaration, { to: creator.email, ...email }, { idempotencyKey: `signing-expired:${id}` });
    }
    return true;
  });
}
