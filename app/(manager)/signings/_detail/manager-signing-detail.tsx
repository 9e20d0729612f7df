import { EnglishViewerText } from "@/components/pdf-viewer/english-viewer-text";
import { DocumentsViewer } from "@/components/pdf-viewer/documents-viewer";
import { SealedDownloads } from "@/components/sealed-downloads";
import { StatusBadge } from "@/components/status-badge";
import { Section } from "@/components/ui/section";
import type { ManagerSigningPage } from "@/lib/views/get-manager-signing-page";
import { joinNames } from "@/lib/format";
import { documentFileUrl } from "@/app/_lib/package-links";
import { ManagerAttachments } from "./attachments/manager-attachments";
import { AuditTrail } from "./audit-trail";
import { ClosingSummary } from "./closing-summary";
import { currentGroup, statusSentence } from "./format";
import { DeferredLiveUpdates, DeferredPackageActions } from "./deferred";
import { SignerTimeline } from "./signer-timeline";
import { VaultDeliveries } from "./vault-deliveries";

/**
 * The manager's view of one package (`/signings/<id>` for a manager who is not one of its signers,
 * `?view=manage` for one who is): where it stands in one sentence, the actions its state allows,
 * the signers as a timeline, the documents read-only in the signer's viewer, the audit trail with
 * its chain verdict and the vault deliveries. It re-renders itself while open (`LiveUpdates`).
 */
export function ManagerSigningDetail({
  page,
  now,
  manageHref,
  signerViewHref,
}: {
  page: ManagerSigningPage;
  now: Date;
  /** This view's address (`/signings/<id>`, or with `?view=manage` for a manager who also signs). */
  manageHref: string;
  /** The person's own signing page, when they are also one of the signers. */
  signerViewHref: string | null;
}) {
  const { detail } = page;
  const documents = detail.documents.map((d) => ({
    id: d.id,
    name: d.name,
    pageCount: d.pageCount,
    fileUrl: documentFileUrl(detail.id, d.id),
    downloadUrl: documentFileUrl(detail.id, d.id, true),
  }));
  const waiting = currentGroup(detail.signers).map((s) => s.name);
  const firstOrder = Math.min(...detail.signers.map((s) => s.routingOrder));
  const firstGroup = detail.signers.filter((s) => s.routingOrder === firstOrder).map((s) => s.name);

  return (
    <div className="space-y-6">
      <header className="space-y-3">
        <p className="text-sm">
          {/* Plain anchors on this view: it shares /signings/<id> with the signer's page, whose scripts carry no next/link. */}
          {/* eslint-disable-next-line @next/next/no-html-link-for-pages -- see above */}
          <a href="/signings" className="font-medium text-blue-800 underline underline-offset-2 hover:text-blue-900">
            ← Packages
          </a>
          {signerViewHref ? (
            <>
              {" · "}
              <a href={signerViewHref} className="font-medium text-blue-800 underline underline-offset-2 hover:text-blue-900">
                Your signing page
              </a>
            </>
          ) : null}
        </p>
        <div className="flex flex-wrap items-center gap-3">
          <h1 className="text-2xl font-semibold tracking-tight break-words text-slate-900">{detail.title}</h1>
          <StatusBadge status={detail.status} />
        </div>
        <p className="text-sm text-slate-700">
          {page.place.organizationName} · {page.place.companyName} · {page.place.locationName}
          {page.creatorName ? <> · created by {page.creatorName}</> : null}
        </p>
        <p role="status" aria-live="polite" data-testid="status-sentence" className="text-base font-medium text-slate-900">
          {statusSentence(detail, now)}
        </p>
        <ClosingSummary signingId={detail.id} />
        {page.canWrite ? (
          <DeferredPackageActions
            signingId={detail.id}
            title={detail.title}
            status={detail.status}
            waitingNames={joinNames(waiting)}
            firstGroupNames={detail.signers.length > 0 ? joinNames(firstGroup) : ""}
          />
        ) : (
          <p className="text-sm text-slate-700">You can read this package; changing it needs a manager of its location.</p>
        )}
      </header>

      <div className="grid gap-6 xl:grid-cols-[minmax(0,1fr)_380px]">
        <div className="min-w-0 xl:col-start-2 xl:row-start-1">
          <Section compact id="signers-heading" title="Signers" description="In signing order; signers with the same number sign in parallel.">
            <SignerTimeline
              signers={detail.signers}
              packageMethod={detail.signerAuthMethod}
              lastReminderAt={page.lastReminderAt}
              texts={page.texts}
              now={now}
              signingId={detail.id}
              canResend={page.canWrite && (detail.status === "sent" || detail.status === "in_progress")}
            />
          </Section>
        </div>
        <div className="min-w-0 xl:col-start-1 xl:row-start-1">
          <Section compact id="documents-heading" title="Documents" description="Read-only, as the signers see them.">
            <EnglishViewerText>
              <DocumentsViewer documents={documents} />
            </EnglishViewerText>
          </Section>
        </div>
      </div>

      <ManagerAttachments signingId={detail.id} canReview={page.canWrite && (detail.status === "sent" || detail.status === "in_progress")} />

      <SealedDownloads packageId={detail.id} seal={page.seal} audience="manager" />

      {page.audit ? (
        <Section compact id="audit-heading" title="Audit trail">
          <AuditTrail
            audit={page.audit}
            pageHref={(cursor) => (cursor ? `${manageHref}${manageHref.includes("?") ? "&" : "?"}audit=${encodeURIComponent(cursor)}` : manageHref)}
          />
        </Section>
      ) : null}

      <Section
        compact
        id="vault-heading"
        title="Vault deliveries"
        description="Each signed document is announced to your vault (signer_document_signed); failed attempts are retried automatically."
      >
        <VaultDeliveries deliveries={page.vaultDeliveries} />
      </Section>

      <DeferredLiveUpdates />
    </div>
  );
}
