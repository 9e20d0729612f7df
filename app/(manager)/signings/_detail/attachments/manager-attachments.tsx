import { Section } from "@/components/ui/section";
import { requirePrincipal } from "@/app/_lib/require-principal";
import { attachmentFileUrl } from "@/app/_lib/package-links";
import { listPackageAttachments } from "@/lib/attachments/list-attachments";
import { DeferredAttachmentRequestActions, DeferredAttachmentRequestForms, DeferredAttachmentReviewForms } from "../deferred";

const REQUEST_STATUS = { missing: "Missing", pending_review: "Waiting for your review", accepted: "Accepted" } as const;
const FILE_STATUS = { pending: "Waiting for review", accepted: "Accepted", rejected: "Rejected" } as const;

/**
 * The attachments asked of the package's signers and what each sent: view or download each file,
 * accept it, or reject it with a reason (the signer is emailed and can send another); stop requiring
 * a request, or withdraw one nothing was sent for. Nothing when no attachment was asked.
 */
export async function ManagerAttachments({ signingId, canReview }: { signingId: string; canReview: boolean }) {
  const { db, principal } = await requirePrincipal(`/signings/${signingId}`);
  const requests = await listPackageAttachments(db, { principal, packageId: signingId });
  if (requests.length === 0) return null;
  const list = (
    <ul className="space-y-3">
      {requests.map((request) => (
        <li key={request.id} className="rounded-md border border-slate-200 p-3" data-testid="manager-attachment-request">
          <div className="flex flex-wrap items-baseline justify-between gap-2">
            <h3 className="font-medium break-words text-slate-900">
              {request.name} <span className="text-sm font-normal text-slate-700">· {request.signerName} · {request.required ? "required" : "optional"}</span>
            </h3>
            <span className="text-sm font-medium text-slate-800">{REQUEST_STATUS[request.status]}</span>
          </div>
          {request.description ? <p className="mt-1 text-sm text-slate-700">{request.description}</p> : null}
          {request.files.length === 0 ? <p className="mt-2 text-sm text-slate-700">Nothing sent yet.</p> : null}
          <ul className="mt-2 space-y-2">
            {request.files.map((file) => (
              <li key={file.id} className="rounded border border-slate-200 p-2 text-sm">
                <p className="text-slate-900">
                  <span className="break-all">{file.fileName}</span> · {file.pageCount} page{file.pageCount === 1 ? "" : "s"} · {FILE_STATUS[file.status]}
                  {file.rejectReason ? <> ({file.rejectReason})</> : null}
                </p>
                <p className="font-mono text-xs break-all text-slate-700">SHA-256 {file.sha256}</p>
                <p className="mt-1 flex gap-3">
                  <a href={attachmentFileUrl(signingId, file.id)} target="_blank" rel="noreferrer" className="font-medium text-blue-800 underline underline-offset-2">
                    View<span className="sr-only"> {file.fileName}</span>
                  </a>
                  <a href={attachmentFileUrl(signingId, file.id, true)} download className="font-medium text-blue-800 underline underline-offset-2">
                    Download<span className="sr-only"> {file.fileName}</span>
                  </a>
                </p>
                {canReview && file.status === "pending" ? <DeferredAttachmentReviewForms signingId={signingId} attachmentId={file.id} fileName={file.fileName} /> : null}
              </li>
            ))}
          </ul>
          {canReview && request.status !== "accepted" ? (
            <DeferredAttachmentRequestForms signingId={signingId} requestId={request.id} requestName={request.name} required={request.required} canWithdraw={request.files.length === 0} />
          ) : null}
        </li>
      ))}
    </ul>
  );
  return (
    <Section
      compact
      id="attachments-heading"
      title="Attachments from signers"
      description="A required attachment must be accepted, and every file sent reviewed, before the package completes."
    >
      {canReview ? <DeferredAttachmentRequestActions>{list}</DeferredAttachmentRequestActions> : list}
    </Section>
  );
}
