import type { Metadata } from "next";
import Link from "next/link";
import { Input, Label, Select, Textarea } from "@/components/ui/input";
import { Section } from "@/components/ui/section";
import { linkClass } from "@/components/ui/classes";
import { closingSummaryText, getClosingDetail, type ClosingDocument } from "@/lib/closings/closing-detail";
import { isInkMode } from "@/lib/packages/document-state-machine";
import { getScanbackReport, listActiveScanbackScans } from "@/lib/closings/scanback";
import { ScanbackDocumentsSummary, ScanbackPagesTable, ScanbackScansProgress } from "@/app/_components/closings/scanback-report";
import { canAccess, hasCapability } from "@/lib/auth/principal";
import { isOpenSigningStatus } from "@/lib/packages/state-machine";
import { formatDateTime } from "@/lib/format";
import { loadOr404 } from "@/app/_lib/load-or-404";
import { requirePrincipal } from "../../../../_lib/require-principal";
import { DirectUploadField } from "../../../_shared/uploads/direct-upload-field";
import { ClosingForm } from "./closing-form";
import { AgentLinkForm } from "./agent-link-form";
import { getAgentLinkStatus, type AgentLinkStatus } from "@/lib/settlement-agent/get-agent-link-status";

export const metadata: Metadata = { title: "Closing" };

/** Its server actions upload and match scanbacks: a serverless host allows it this many seconds (docs/deploy.md). */
export const maxDuration = 300;

const MODE: Record<ClosingDocument["executionMode"], string> = {
  esign: "E-signed online",
  wet_sign: "Ink at the table",
  notarize: "Ink before a notary",
  review_only: "Only to read",
};

function stateText(d: ClosingDocument): string {
  switch (d.executionStatus) {
    case "esigned":
      return "E-signed";
    case "acknowledged":
      return "Acknowledged";
    case "scan_uploaded":
      return "Scan to review";
    case "accepted":
      return d.scan?.reviewedAt ? `Scan accepted${d.scan.reviewedByName ? ` by ${d.scan.reviewedByName}` : ""}, ${formatDateTime(d.scan.reviewedAt)}` : "Scan accepted";
    case "rejected":
      return `Scan rejected: ${d.scan?.rejectReason ?? "no reason given"}. Waiting for a new scan.`;
    default:
      return d.executionMode === "esign" ? "Waiting to be e-signed" : d.executionMode === "review_only" ? "Waiting to be acknowledged" : "Waiting for the scan";
  }
}

const cell = "px-3 py-2 align-top";

/** Where the settlement agent's link stands, in one sentence. */
function agentLinkText(link: AgentLinkStatus | null): string {
  if (!link) return "No link sent yet.";
  const to = `${link.agentName} (${link.agentEmail})`;
  switch (link.state) {
    case "sent":
      return `Sent to ${to} on ${formatDateTime(link.issuedAt)}; not opened yet. Works once, until ${formatDateTime(link.expiresAt)}.`;
    case "opened":
      return `Sent to ${to}; opened on ${formatDateTime(link.openedAt!)}. Works until ${formatDateTime(link.expiresAt)}.`;
    case "expired":
      return `The link sent to ${to} expired on ${formatDateTime(link.expiresAt)}.`;
    case "revoked":
      return `The link sent to ${to} was revoked on ${formatDateTime(link.revokedAt!)}.`;
  }
}

/** A stored moment as a `datetime-local` value in UTC ("2026-12-01T15:00"). */
const localValue = (moment: Date | null) => (moment ? moment.toISOString().slice(0, 16) : "");

/**
 * `/signings/<id>/closing`: a hybrid closing for its managers — where each document stands (the
 * summary line), the appointment, the table packet, the scanback upload with its page-by-page
 * report (hand assignment of unreadable pages), the review of each scan, and "Convert to ink".
 */
export default async function ClosingPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const { db, principal } = await requirePrincipal(`/signings/${id}/closing`);
  const [detail, report, scans, agentLink] = await Promise.all([
    loadOr404(getClosingDetail(db, { principal, packageId: id })),
    loadOr404(getScanbackReport(db, { principal, packageId: id })),
    loadOr404(listActiveScanbackScans(db, { principal, packageId: id })),
    loadOr404(getAgentLinkStatus(db, { principal, packageId: id })),
  ]);
  const { signing, documents } = detail;
  const canWrite = hasCapability(principal, "signings:write") && canAccess(principal, "signings:write", signing);
  const open = isOpenSigningStatus(signing.status);
  const ink = documents.filter((d) => isInkMode(d.executionMode));
  const toReview = documents.filter((d) => d.executionStatus === "scan_uploaded");
  const anyReady = report.documents.some((d) => d.ready);

  return (
    <div className="space-y-6">
      <header className="space-y-2">
        <p className="text-sm">
          <Link href={`/signings/${id}`} className={linkClass}>
            ← {signing.title}
          </Link>
        </p>
        <h1 className="text-2xl font-semibold tracking-tight text-slate-900">Closing</h1>
        <p data-testid="closing-summary" className="text-base font-medium text-slate-900">
          {closingSummaryText(detail.summary) || "No documents yet."}
        </p>
        {signing.status === "completed" ? (
          // Accepting the last scan removes its review form, and the form's answer with it: the page says it here.
          <p role="status" data-testid="closing-complete" className="rounded-md border border-emerald-200 bg-emerald-50 px-3 py-2 text-sm text-emerald-950">
            The package is complete{signing.completedAt ? ` (${formatDateTime(signing.completedAt)})` : ""}: every document is done. The accepted scans are sealed
            with the rest; the{" "}
            <Link href={`/signings/${id}`} className={linkClass}>
              sealed documents
            </Link>{" "}
            appear on the package page.
          </p>
        ) : null}
        <dl className="grid gap-x-6 gap-y-1 text-sm text-slate-700 sm:grid-cols-[max-content_1fr]">
          <dt className="font-medium">Appointment</dt>
          <dd>
            {signing.closingAt ? formatDateTime(signing.closingAt, "long") : "Not scheduled"}
            {signing.closingPlace ? ` · ${signing.closingPlace}` : ""}
            {signing.settlementAgent ? ` · settlement agent ${signing.settlementAgent}` : ""}
          </dd>
          {signing.esignOpensAt ? (
            <>
              <dt className="font-medium">E-signing opens</dt>
              <dd>{formatDateTime(signing.esignOpensAt, "long")}</dd>
            </>
          ) : null}
        </dl>
        <div className="flex flex-wrap items-start gap-4 pt-1">
          {ink.length > 0 ? (
            <a href={`/signings/${id}/closing/table-packet`} className={linkClass} download>
              Download the table packet (PDF)
            </a>
          ) : (
            <p className="text-sm text-slate-700">No document is signed in ink, so there is no table packet.</p>
          )}
          {canWrite && open && documents.some((d) => d.executionMode === "esign" && d.executionStatus === "pending") ? (
            <ClosingForm action="convert" signingId={id} label="Convert to ink" pendingLabel="Converting…" variant="secondary" className="max-w-md">
              <p className="text-sm text-slate-700">Every document not yet e-signed will be printed in the table packet and signed in ink instead.</p>
            </ClosingForm>
          ) : null}
        </div>
      </header>

      <Section compact id="closing-documents-heading" title="Documents" description="How each document is executed and where it stands.">
        <div className="overflow-x-auto" tabIndex={0} role="region" aria-label="Documents, one row per document">
          <table className="w-full min-w-[640px] text-left text-sm">
            <thead className="border-b border-slate-300 text-slate-700">
              <tr>
                <th scope="col" className={cell}>Document</th>
                <th scope="col" className={cell}>How</th>
                <th scope="col" className={cell}>Where it stands</th>
                <th scope="col" className={cell}>Scan</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-200">
              {documents.map((d) => (
                <tr key={d.id} data-testid="closing-document">
                  <th scope="row" className={`${cell} font-medium text-slate-900`}>
                    {d.name} <span className="font-normal text-slate-600">({d.pageCount} p.)</span>
                  </th>
                  <td className={cell}>{MODE[d.executionMode]}</td>
                  <td className={cell}>{stateText(d)}</td>
                  <td className={`${cell} break-all text-xs text-slate-600`}>{d.scan ? `SHA-256 ${d.scan.sha256.slice(0, 16)}…, ${d.scan.pageCount} p.` : "—"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </Section>

      {canWrite && signing.status === "draft" && documents.length > 0 ? (
        <Section compact id="closing-modes-heading" title="How each document is signed" description="Chosen while the package is a draft. Ink documents are printed in the table packet; review-only documents are only acknowledged.">
          <ClosingForm action="modes" signingId={id} label="Save how documents are signed" pendingLabel="Saving…" variant="secondary">
            <div className="grid gap-3 sm:grid-cols-2">
              {documents.map((d) => (
                <div key={d.id}>
                  <input type="hidden" name={`was.${d.id}`} value={d.executionMode} />
                  <Label htmlFor={`mode-${d.id}`}>{d.name}</Label>
                  <Select id={`mode-${d.id}`} name={`mode.${d.id}`} defaultValue={d.executionMode}>
                    <option value="esign">E-signed online</option>
                    <option value="wet_sign">Signed in ink at the table</option>
                    <option value="notarize">Signed in ink before a notary</option>
                    <option value="review_only">Only to read (acknowledged)</option>
                  </Select>
                </div>
              ))}
            </div>
          </ClosingForm>
        </Section>
      ) : null}

      {canWrite && toReview.length > 0 ? (
        <Section compact id="closing-review-heading" title="Scans to review" description="Open the scan, then accept it or reject it with a reason (the settlement agent sends a new scan).">
          <ul className="space-y-4">
            {toReview.map((d) => (
              <li key={d.id} className="space-y-2 rounded-md border border-slate-200 p-3">
                <p className="font-medium text-slate-900">
                  {d.name} ·{" "}
                  <a href={`/signings/${id}/closing/scans/${d.id}`} target="_blank" rel="noreferrer" className={linkClass}>
                    Open the scan<span className="sr-only"> of {d.name}</span> (PDF, {d.scan?.pageCount ?? d.pageCount} pages)
                  </a>
                </p>
                <div className="flex flex-wrap gap-6">
                  <ClosingForm action="review" signingId={id} label={`Accept scan of ${d.name}`} pendingLabel="Accepting…">
                    <input type="hidden" name="documentId" value={d.id} />
                    <input type="hidden" name="decision" value="accept" />
                  </ClosingForm>
                  <ClosingForm action="review" signingId={id} label={`Reject scan of ${d.name}`} pendingLabel="Rejecting…" variant="danger" className="min-w-72 flex-1">
                    <input type="hidden" name="documentId" value={d.id} />
                    <input type="hidden" name="decision" value="reject" />
                    <Label htmlFor={`reason-${d.id}`}>Reason for rejecting</Label>
                    <Textarea id={`reason-${d.id}`} name="reason" rows={2} required maxLength={1000} />
                  </ClosingForm>
                </div>
              </li>
            ))}
          </ul>
        </Section>
      ) : null}

      {canWrite && open && ink.length > 0 ? (
        <Section
          compact
          id="closing-agent-heading"
          title="Settlement agent link"
          description="A one-time link for the settlement agent: it opens this closing only — the appointment, the borrowers' names, the ink documents, the table packet and the scan upload with its report. Reviewing scans stays with you."
        >
          <div className="space-y-4">
            <p data-testid="agent-link-status" className="text-sm text-slate-800">
              {agentLinkText(agentLink)}
            </p>
            <AgentLinkForm signingId={id} agentName={agentLink?.agentName ?? signing.settlementAgent ?? ""} agentEmail={agentLink?.agentEmail ?? ""} reissue={agentLink !== null} />
            {agentLink && (agentLink.state === "sent" || agentLink.state === "opened") ? (
              <ClosingForm action="revokeAgentLink" signingId={id} label="Revoke the link" pendingLabel="Revoking…" variant="danger" />
            ) : null}
          </div>
        </Section>
      ) : null}

      {canWrite && open && ink.length > 0 ? (
        <Section
          compact
          id="closing-scans-heading"
          title="Scanned pages"
          description="Upload the ink-signed pages (PDF, JPEG or PNG; any order, turned or not; up to 10 MiB and 200 pages per upload). Every page is matched by its code and listed below before anything is attached; a scan of more than 10 pages is read in the background, with its progress shown here."
        >
          <div className="space-y-6">
            <ClosingForm action="upload" signingId={id} label="Upload and check" pendingLabel="Reading the pages…" multipart>
              <DirectUploadField id="scan-files" name="files" idsName="uploadIds" label="Scanned files" multiple required accept="application/pdf,image/jpeg,image/png" />
            </ClosingForm>

            <ScanbackScansProgress scans={scans} refreshHref={`/signings/${id}/closing`} />

            <div className="space-y-2">
              <h3 className="text-base font-semibold text-slate-900">Pages per document</h3>
              <ScanbackDocumentsSummary report={report} />
              {anyReady ? <ClosingForm action="accept" signingId={id} label="Attach complete documents" pendingLabel="Attaching…" /> : null}
            </div>

            <ScanbackPagesTable
              report={report}
              imageHref={(pageId) => `/signings/${id}/closing/pages/${pageId}`}
              actions={(p) => (
                <>
                  {p.status === "unreadable" ? (
                    <ClosingForm action="assign" signingId={id} label="Assign page" pendingLabel="Assigning…" variant="secondary">
                      <input type="hidden" name="pageId" value={p.id} />
                      <div className="flex flex-wrap gap-2">
                        <div>
                          <Label htmlFor={`doc-${p.id}`}>Document</Label>
                          <Select id={`doc-${p.id}`} name="documentId" required>
                            {ink.map((d) => (
                              <option key={d.id} value={d.id}>
                                {d.name}
                              </option>
                            ))}
                          </Select>
                        </div>
                        <div className="w-24">
                          <Label htmlFor={`num-${p.id}`}>Page</Label>
                          <Input id={`num-${p.id}`} name="pageNumber" type="number" min={1} required inputMode="numeric" />
                        </div>
                        <div>
                          <Label htmlFor={`turn-${p.id}`}>Turn it</Label>
                          <Select id={`turn-${p.id}`} name="rotation" defaultValue="0">
                            <option value="0">Already upright</option>
                            <option value="90">90° clockwise</option>
                            <option value="180">Upside down (180°)</option>
                            <option value="270">90° counter-clockwise</option>
                          </Select>
                        </div>
                      </div>
                    </ClosingForm>
                  ) : null}
                  <ClosingForm action="discard" signingId={id} label="Discard" pendingLabel="Discarding…" variant="ghost">
                    <input type="hidden" name="pageId" value={p.id} />
                  </ClosingForm>
                </>
              )}
            />
          </div>
        </Section>
      ) : null}
      {canWrite && (signing.status === "draft" || open) ? (
        <Section compact id="closing-appointment-heading" title="Appointment" description="Times are in UTC. Leave a field empty to clear it.">
          <ClosingForm action="appointment" signingId={id} label="Save appointment" pendingLabel="Saving…" variant="secondary">
            <div className="grid gap-3 sm:grid-cols-2">
              <div>
                <Label htmlFor="closingAt">Closing date and time (UTC)</Label>
                <Input id="closingAt" name="closingAt" type="datetime-local" defaultValue={localValue(signing.closingAt)} />
              </div>
              <div>
                <Label htmlFor="esignOpensAt">E-signing opens (UTC, optional)</Label>
                <Input id="esignOpensAt" name="esignOpensAt" type="datetime-local" defaultValue={localValue(signing.esignOpensAt)} />
              </div>
              <div>
                <Label htmlFor="closingPlace">Place</Label>
                <Input id="closingPlace" name="closingPlace" maxLength={500} defaultValue={signing.closingPlace ?? ""} />
              </div>
              <div>
                <Label htmlFor="settlementAgent">Settlement agent</Label>
                <Input id="settlementAgent" name="settlementAgent" maxLength={200} defaultValue={signing.settlementAgent ?? ""} />
              </div>
            </div>
          </ClosingForm>
        </Section>
      ) : null}

    </div>
  );
}
