import type { Metadata } from "next";
import { connection } from "next/server";
import { BrandHeader } from "@/components/brand/brand-header";
import { linkClass } from "@/components/ui/classes";
import { Section } from "@/components/ui/section";
import { ScanbackDocumentsSummary, ScanbackPagesTable } from "@/app/_components/closings/scanback-report";
import { formatDateTime } from "@/lib/format";
import { prepareDatabase } from "@/lib/boot";
import { getAgentClosing, type AgentClosing } from "@/lib/settlement-agent/get-agent-closing";
import { currentAgentPrincipal } from "@/lib/settlement-agent/session-cookie";
import { AgentLinkEnded } from "../../_card";
import { AgentUploadForm } from "./upload-form";

export const metadata: Metadata = { title: "Closing documents", robots: { index: false, follow: false } };

/** Its server action uploads and matches the agent's scanbacks: a serverless host allows it this many seconds (docs/deploy.md). */
export const maxDuration = 300;

const MODE = { wet_sign: "Signed in ink at the table", notarize: "Signed in ink before a notary" } as Record<string, string>;

function stateText(status: AgentClosing["documents"][number]["executionStatus"]): string {
  switch (status) {
    case "scan_uploaded":
      return "Scan received; the closing team is reviewing it";
    case "accepted":
      return "Scan accepted";
    case "rejected":
      return "Scan rejected by the closing team: upload a new scan";
    default:
      return "Waiting for the scan";
  }
}

/**
 * `/agent/closing/<id>`: the settlement agent's view of one package, reached with the session cookie
 * of its one-time link — the appointment, the borrowers' names, the ink documents, the table packet,
 * the scan upload and its page-by-page report. Nothing of another package, no review, no e-signed content.
 */
export default async function AgentClosingPage({ params }: { params: Promise<{ id: string }> }) {
  await connection();
  const { id } = await params;
  const { db } = await prepareDatabase();
  const principal = await currentAgentPrincipal(db, id);
  if (!principal) return <AgentLinkEnded />;
  const closing = await getAgentClosing(db, { principal, packageId: id });
  const { signing, report } = closing;
  return (
    <div className="space-y-6" style={{ ["--brand-color" as string]: closing.brand.color }}>
      <div className="overflow-hidden rounded-xl border border-slate-200">
        <BrandHeader brand={closing.brand} />
      </div>
      <header className="space-y-2">
        <p className="text-sm text-slate-700">Settlement agent: {principal.user.name}</p>
        <h1 className="text-2xl font-semibold tracking-tight text-slate-900">{signing.title}</h1>
        <dl className="grid gap-x-6 gap-y-1 text-sm text-slate-800 sm:grid-cols-[max-content_1fr]">
          <dt className="font-medium">Appointment</dt>
          <dd>{signing.closingAt ? formatDateTime(signing.closingAt, "long") : "Not scheduled yet"}</dd>
          {signing.closingPlace ? (
            <>
              <dt className="font-medium">Place</dt>
              <dd>{signing.closingPlace}</dd>
            </>
          ) : null}
          <dt className="font-medium">Borrowers</dt>
          <dd>{closing.borrowers.join(", ")}</dd>
          <dt className="font-medium">Lender</dt>
          <dd>{closing.lenderName}</dd>
        </dl>
      </header>

      <Section compact id="agent-packet-heading" title="Table packet" description="A cover sheet, then every page to sign in ink, each with a code in its corner. Print it single-sided and keep the codes visible.">
        <p>
          <a href={`/agent/closing/${id}/table-packet`} className={linkClass} download>
            Download the table packet (PDF)
          </a>
        </p>
        <ul className="divide-y divide-slate-200 text-sm" data-testid="agent-documents">
          {closing.documents.map((d) => (
            <li key={d.id} className="py-2">
              <span className="font-medium text-slate-900">{d.name}</span> <span className="text-slate-600">({d.pageCount} p.)</span>
              <br />
              {MODE[d.executionMode] ?? d.executionMode} · {stateText(d.executionStatus)}
            </li>
          ))}
        </ul>
      </Section>

      <Section
        compact
        id="agent-scans-heading"
        title="Upload the signed pages"
        description="After the closing, scan the ink-signed pages and upload them. Every page is matched by its code and listed below; the closing team attaches complete documents and reviews them."
      >
        <AgentUploadForm packageId={id} />
        <div className="space-y-2">
          <h3 className="text-base font-semibold text-slate-900">Pages per document</h3>
          <ScanbackDocumentsSummary report={report} />
        </div>
        <ScanbackPagesTable report={report} imageHref={(pageId) => `/agent/closing/${id}/pages/${pageId}`} />
      </Section>
    </div>
  );
}
