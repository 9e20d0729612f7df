import { getTranslations } from "next-intl/server";
import { requirePrincipal } from "@/app/_lib/require-principal";
import { listMyAttachments, type AttachmentRequestView } from "@/lib/attachments/list-attachments";
import { MAX_ATTACHMENT_BYTES } from "@/lib/attachments/limits";
import type { Locale } from "@/lib/i18n/locales";
import { DeferredAttachmentUploadForm } from "./deferred";

const STATUS_CLASS = {
  pending: "bg-amber-50 text-amber-950 border-amber-200",
  accepted: "bg-emerald-50 text-emerald-900 border-emerald-200",
  rejected: "bg-red-50 text-red-900 border-red-200",
} as const;

/**
 * "Attachments requested": each document the sender asked of this signer, with what they sent and
 * where it stands (waiting for review, accepted, or not accepted with the reason), and a file input
 * (camera or file) while the request still needs a file and the package is open. Nothing when none
 * was asked.
 */
export async function AttachmentsSection({ signingId, open, locale }: { signingId: string; open: boolean; locale: Locale }) {
  const { db, principal } = await requirePrincipal(`/signings/${signingId}`, { signerOf: signingId });
  const requests = await listMyAttachments(db, { principal, packageId: signingId });
  if (requests.length === 0) return null;
  const t = await getTranslations({ locale, namespace: "attachments" });
  const mb = MAX_ATTACHMENT_BYTES / 1024 / 1024;
  return (
    <section id="attachments" aria-labelledby="attachments-heading" className="scroll-mt-4 rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
      <h2 id="attachments-heading" className="text-lg font-semibold text-slate-900">
        {t("title")}
      </h2>
      <p className="mt-1 text-sm text-slate-700">{t("intro")}</p>
      {!open ? <p className="mt-2 text-sm text-slate-700">{t("closed")}</p> : null}
      <ul className="mt-3 space-y-4">
        {requests.map((request) => (
          <li key={request.id} className="rounded-md border border-slate-200 p-3" data-testid="attachment-request">
            <RequestItem request={request} signingId={signingId} open={open} locale={locale} t={t} mb={mb} />
          </li>
        ))}
      </ul>
    </section>
  );
}

type T = Awaited<ReturnType<typeof getTranslations<"attachments">>>;

function RequestItem({ request, signingId, open, locale, t, mb }: { request: AttachmentRequestView; signingId: string; open: boolean; locale: Locale; t: T; mb: number }) {
  const needsFile = request.status === "missing";
  return (
    <>
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h3 className="font-medium break-words text-slate-900">{request.name}</h3>
        <span className="text-xs font-medium text-slate-700">{request.required ? t("required") : t("optional")}</span>
      </div>
      {request.description ? <p className="mt-1 text-sm text-slate-700">{request.description}</p> : null}
      {request.files.length === 0 ? (
        <p className="mt-2 text-sm text-slate-700">{t("none")}</p>
      ) : (
        <ul className="mt-2 space-y-1">
          {request.files.map((file) => (
            <li key={file.id} className={`rounded border px-2 py-1 text-sm ${STATUS_CLASS[file.status]}`}>
              <span className="break-all">{file.fileName}</span> ·{" "}
              <span data-testid="attachment-status">
                {file.status === "pending" ? t("pending") : file.status === "accepted" ? t("accepted") : t("rejectedReason", { reason: file.rejectReason ?? "" })}
              </span>
            </li>
          ))}
        </ul>
      )}
      {open && needsFile ? (
        <DeferredAttachmentUploadForm
          signingId={signingId}
          requestId={request.id}
          locale={locale}
          labels={{
            choose: request.files.length > 0 ? `${t("sendAnother")}: ${request.name}` : t("choose", { name: request.name }),
            send: t("send"),
            sending: t("sending"),
            hint: t("hint", { mb }),
          }}
        />
      ) : null}
    </>
  );
}
