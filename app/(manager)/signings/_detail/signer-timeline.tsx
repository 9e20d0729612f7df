import { StatusBadge } from "@/components/status-badge";
import type { ManagerSigningPage } from "@/lib/signings/get-manager-signing-page";
import type { SignerTexts as SignerTextsView } from "@/lib/sms/list-signer-texts";
import { formatDateTime, relativeTime } from "@/app/_lib/format";
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
  lastReminderAt,
  now,
  signingId,
  canResend,
  texts = {},
}: {
  signers: Signer[];
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
            <SignerProof signer={signer} />
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

/** How the signer proves who they are, and whether (and when) they did. */
function SignerProof({ signer }: { signer: Signer }) {
  return (
    <p className="mt-1 text-xs text-slate-700">
      Proof of identity: {signer.authMethod ? AUTH_METHOD_LABELS[signer.authMethod] : "the package's method"} ·{" "}
      {signer.authPassedAt ? (
        <>
          passed{" "}
          <time dateTime={signer.authPassedAt} title={formatDateTime(signer.authPassedAt)}>
            {formatDateTime(signer.authPassedAt)}
          </time>
        </>
      ) : (
        "not passed yet"
      )}
    </p>
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
