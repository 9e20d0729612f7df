import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { prepareDatabase } from "@/lib/boot";
import { listOutboxEmails } from "@/lib/email/list-outbox-emails";
import { getEnv } from "@/lib/env";

export const metadata: Metadata = { title: "Dev outbox" };
export const dynamic = "force-dynamic";

const LIMIT = 100;

/**
 * Development only: the mail the app would have sent, kept in `outbox_emails` while SMTP_URL is
 * unset (invites, outreach). Not found in production, where mail goes through SMTP.
 */
export default async function DevOutboxPage() {
  const env = getEnv();
  if (env.NODE_ENV === "production") notFound();
  const { db } = await prepareDatabase();
  const emails = await listOutboxEmails(db, { limit: LIMIT });

  return (
    <main id="main" className="mx-auto max-w-4xl space-y-6 p-6">
      <header className="space-y-1">
        <h1 className="text-2xl font-semibold tracking-tight">Dev outbox</h1>
        <p className="text-sm text-slate-700">
          {env.SMTP_URL
            ? "SMTP_URL is set: new mail goes to the SMTP server; this page shows what was kept earlier."
            : `SMTP_URL is not set: outgoing mail is kept here instead of being sent. The ${LIMIT} newest messages, newest first.`}
        </p>
      </header>
      {emails.length === 0 ? (
        <p className="rounded-lg border border-dashed border-slate-300 bg-white p-6 text-sm text-slate-700">No mail yet.</p>
      ) : (
        <ol className="space-y-4" data-testid="outbox-emails">
          {emails.map((email) => (
            <li key={email.id} className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
              <article aria-label={email.subject} className="space-y-3">
                <h2 className="text-base font-semibold">{email.subject}</h2>
                <dl className="grid grid-cols-[6rem_1fr] gap-x-3 gap-y-1 text-sm">
                  <dt className="text-slate-600">To</dt>
                  <dd>{email.to}</dd>
                  <dt className="text-slate-600">From</dt>
                  <dd>{email.from}</dd>
                  {email.replyTo ? (
                    <>
                      <dt className="text-slate-600">Reply-To</dt>
                      <dd className="break-all">{email.replyTo}</dd>
                    </>
                  ) : null}
                  <dt className="text-slate-600">Queued</dt>
                  <dd>
                    <time dateTime={email.createdAt.toISOString()}>{email.createdAt.toISOString().replace("T", " ").slice(0, 19)} UTC</time>
                  </dd>
                </dl>
                <pre className="whitespace-pre-wrap rounded-md bg-slate-50 p-3 font-sans text-sm">{email.text}</pre>
              </article>
            </li>
          ))}
        </ol>
      )}
    </main>
  );
}
