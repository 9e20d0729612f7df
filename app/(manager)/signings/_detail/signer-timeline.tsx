import { StatusBadge } from "@/components/status-badge";
import type { ManagerSigningPage } from "@/lib/views/get-manager-signing-page";
import type { SignerTexts as SignerTextsView } from "@/lib/sms/list-signer-texts";
import { formatDateTime, relativeTime } from "@/lib/format";
import type { SignerAuthMethod } from "@/db/schema/signer-auth-method";
import { AUTH_METHOD_LABELS } from "@/lib/signer-access/rules";
import { ResendInvitation } from "./resend-invitation";

type Signer = ManagerSigningPage["detail"]["signers"][number];

type Event = { label: string; at: string; detail?: string };

function eventsOf(signer: Signer, lastReminderAt: string | undefined): Event[] {
  const events: Event[] = [];
  if (signer.notifiedAt) events.push({ label: "Emailed", at: signer.notifiedAt });
  if (lastReminderAt) events.push({ label: "Last reminder", at: lastReminderAt });
  if (signer.viewedAt) events.push({ label: "Opened", at: signer.viewedAt });
  if (signer.signedAt) events.push({ label: "Signed", at: signer.signedAt });
  if (signer.declinedAt) events.push({ label: "Declined", at: signer.declinedAt, detail: signer.declineReason ?? undefined });
  return events.sort((a, b) => a.at.localeCompare(b.at));
}

/** Each signer with status, routing group and what happened when (emailed, reminded, opened, signed or declined). */
export function SignerTimeline({
  signers,
  packageMethod,
  lastReminderAt,
  now,
  signingId,
  canResend,
  texts = {},
}: {
  signers: Signer[];
  /** The package's method of proof, for signers who follow it. */
  packageMethod: SignerAuthMethod;
  lastReminderAt: Record<string, string>;
  /** Per signer id: consent to texts, a STOP reply, the last text's status (signers with a mobile number). */
  texts?: Record<string, SignerTextsView>;
  now: Date;
  signingId: string;
  /** The package is sent or in progress (and the viewer may write): invited signers get "Resend invitation". */
  canResend: boolean;
}) {
  if (signers.length === 0) return <p className="text-sm text-slate-700">No signers yet. Add them when you edit the draft.</p>;
  return (
    <ol className="space-y-4" aria-label="Signers in signing order">
      {signers.map((signer) => {
        const events = eventsOf(signer, lastReminderAt[signer.id]);
        const last = events.at(-1);
        return (
          <li key={signer.id} aria-label={signer.name} className="rounded-md border border-slate-200 p-3">
            <div className="flex flex-wrap items-baseline justify-between gap-2">
              <p className="font-medium break-words text-slate-900">{signer.name}</p>
              <StatusBadge status={signer.status} />
            </div>
            <p className="text-sm break-all text-slate-700">{signer.email}</p>
            <p className="mt-1 text-xs text-slate-700">
              Order {signer.routingOrder} · {signer.role === "co_signer" ? "Co-signer" : "Signer"}
              {last ? <> · last activity {relativeTime(last.at, now)}</> : <> · not emailed yet</>}
            </p>
            <SignerProof signer={signer} packageMethod={packageMethod} now={now} />
            {texts[signer.id] ? <SignerTexts texts={texts[signer.id]!} /> : null}
            {canResend && (signer.status === "notified" || signer.status === "viewed") ? (
              <ResendInvitation signingId={signingId} signerId={signer.id} signerName={signer.name} />
            ) : null}
            {events.length > 0 ? (
              <ol className="mt-2 space-y-1 border-l-2 border-slate-200 pl-3 text-sm" aria-label={`${signer.name}: activity`}>
                {events.map((event) => (
                  <li key={event.label}>
                    <span className="font-medium text-slate-900">{event.label}</span>{" "}
                    <time dateTime={event.at} title={formatDateTime(event.at)} className="text-slate-700">
                      {formatDateTime(event.at)}
                    </time>
                    {event.detail ? <q className="block text-slate-800">{event.detail}</q> : null}
                  </li>
                ))}
              </ol>
            ) : null}
          </li>
        );
      })}
    </ol>
  );
}

/**
 * How the signer proves who they are (their own method, or the package's), whether (and when, and
 * how) they passed it, wrong codes entered, and until when five wrong codes lock their proof step.
 */
function SignerProof({ signer, packageMethod, now }: { signer: Signer; packageMethod: SignerAuthMethod; now: Date }) {
  const method = signer.authMethod ?? packageMethod;
  const locked = signer.authLockedUntil && new Date(signer.authLockedUntil) > now ? signer.authLockedUntil : null;
  return (
    <div className="mt-1 space-y-0.5 text-xs text-slate-700">
      <p>
        Proof of identity: {AUTH_METHOD_LABELS[method]}
        {signer.authMethod ? "" : " (the package's method)"}
        {method === "access_code" ? (signer.hasAccessCode ? " · code set" : " · no code set") : null}
        {method === "sms_code" && signer.phone ? <> · {signer.phone}</> : null}
      </p>
      <p>
        {signer.authPassedAt ? (
          <>
            Passed{signer.authPassedMethod && signer.authPassedMethod !== method ? ` (${AUTH_METHOD_LABELS[signer.authPassedMethod].toLowerCase()})` : ""}{" "}
            <time dateTime={signer.authPassedAt} title={formatDateTime(signer.authPassedAt)}>
              {formatDateTime(signer.authPassedAt)}
            </time>
          </>
        ) : (
          "Not passed yet"
        )}
        {" · "}
        {signer.authFailures === 0 ? "no wrong codes" : `${signer.authFailures} wrong ${signer.authFailures === 1 ? "code" : "codes"}`}
      </p>
      {locked ? (
        <p className="font-medium text-red-800">
          Locked after too many wrong codes until{" "}
          <time dateTime={locked} title={formatDateTime(locked)}>
            {formatDateTime(locked)}
          </time>
        </p>
      ) : null}
    </div>
  );
}

const TEXT_KINDS = { invitation: "Invitation", your_turn: "Your turn", reminder: "Reminder" } as const;

/** Where the last text stands, in words. */
function textStatus(last: NonNullable<SignerTextsView["last"]>): string {
  switch (last.status) {
    case "queued":
      return "waiting to be sent";
    case "sent":
      return "sent";
    case "delivered":
      return "delivered";
    case "undelivered":
      return `not delivered${last.errorCode ? ` (carrier error ${last.errorCode})` : ""}`;
    case "failed":
      return `failed${last.errorCode ? ` (error ${last.errorCode})` : ""}`;
    case "skipped":
      return last.skipReason === "opted_out"
        ? "not sent: texts stopped"
        : last.skipReason === "not_configured"
          ? "not sent: text messages are not set up"
          : "not sent: no consent to texts";
  }
}

/** The signer's texts: stopped by the borrower (and when), or consent and the last text's delivery status. */
function SignerTexts({ texts }: { texts: SignerTextsView }) {
  if (texts.stoppedAt) {
    return (
      <p className="mt-1 text-xs font-medium text-amber-900">
        Texts stopped by the borrower on{" "}
        <time dateTime={texts.stoppedAt} title={formatDateTime(texts.stoppedAt)}>
          {formatDateTime(texts.stoppedAt)}
        </time>{" "}
        (they replied STOP; emails still go).
      </p>
    );
  }
  if (!texts.consentAt) return <p className="mt-1 text-xs text-slate-700">Texts: off (no consent to texts recorded).</p>;
  return (
    <p className="mt-1 text-xs text-slate-700">
      Texts: on
      {texts.last ? (
        <>
          {" "}
          · {TEXT_KINDS[texts.last.kind]} text {textStatus(texts.last)}{" "}
          <time dateTime={texts.last.at} title={formatDateTime(texts.last.at)}>
            {formatDateTime(texts.last.at)}
          </time>
        </>
      ) : (
        " · none sent yet"
      )}
    </p>
  );
}
