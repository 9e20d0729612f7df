import { and, asc, eq, lte, or, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { outboxEmails, packageSigners, signerAccessLinks, signerAuthChallenges, type OutboxEmail } from "@/db/schema";
import { jobs, type Job } from "@/db/schema/jobs";
import { SEND_EMAIL_JOB } from "@/lib/email/send-email-payload";
import { sendEmailJob } from "@/lib/job-runner/send-email-job";
import { createJobRegistry } from "@/lib/jobs/create-job-registry";
import { runDueJobs } from "@/lib/job-runner/run-due-jobs";

const emailOnly = createJobRegistry([sendEmailJob]);

/**
 * Runs every due `send-email` job through the local runner, one at a time, as the worker would: a
 * signer's email is rendered then and lands in the dev outbox (`outbox_emails`, no SMTP_URL in tests).
 */
export async function deliverQueuedEmails(db: Db): Promise<void> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const run = await runDueJobs(db, { workerId: "test-mail", registry: emailOnly, limit: 1 });
    if (run.claimed > 0) continue;
    // A server's own worker (browser tests) may hold one: wait until it has delivered it.
    const [busy] = await db
      .select({ id: jobs.id })
      .from(jobs)
      .where(and(eq(jobs.name, SEND_EMAIL_JOB), or(eq(jobs.status, "running"), and(eq(jobs.status, "queued"), lte(jobs.runAt, sql`now()`)))))
      .limit(1);
    if (!busy || Date.now() > deadline) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Every email delivered to `to`, oldest first (queued ones are delivered first). */
export async function deliveredMailsTo(db: Db, to: string): Promise<OutboxEmail[]> {
  await deliverQueuedEmails(db);
  return db.select().from(outboxEmails).where(eq(outboxEmails.to, to)).orderBy(asc(outboxEmails.createdAt));
}

/** The newest email delivered to `to`; throws when there is none. */
export async function lastDeliveredMailTo(db: Db, to: string): Promise<OutboxEmail & { html: string }> {
  const mail = (await deliveredMailsTo(db, to)).at(-1);
  if (!mail) throw new Error(`no mail delivered to ${to}`);
  return { ...mail, html: mail.html ?? "" };
}

/**
 * Who a queued `send-email` job mails: the rendered mail's `to`, or, for a signer's mail enqueued by
 * id, the address of the signer its access link or code challenge belongs to (read from those rows).
 */
export async function emailJobRecipient(db: Db, job: Pick<Job, "payload">): Promise<string> {
  const payload = job.payload as { to?: string; linkId?: string; challengeId?: string };
  if (payload.to) return payload.to;
  const [row] = payload.linkId
    ? await db.select({ email: packageSigners.email }).from(signerAccessLinks).innerJoin(packageSigners, eq(packageSigners.id, signerAccessLinks.signerId)).where(eq(signerAccessLinks.id, payload.linkId))
    : await db.select({ email: packageSigners.email }).from(signerAuthChallenges).innerJoin(packageSigners, eq(packageSigners.id, signerAuthChallenges.signerId)).where(eq(signerAuthChallenges.id, payload.challengeId ?? ""));
  if (!row) throw new Error("the email job's signer is gone");
  return row.email;
}
