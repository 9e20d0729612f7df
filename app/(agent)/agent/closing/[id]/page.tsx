import type { Metadata } from "next";
import { connection } from "next/server";
import { NextIntlClientProvider } from "next-intl";
import { getLocale, getTranslations } from "next-intl/server";
import { BrandHeader } from "@/components/brand/brand-header";
import { linkClass } from "@/components/ui/classes";
import { Section } from "@/components/ui/section";
import { ScanbackDocumentsSummary, ScanbackPagesTable, ScanbackScansProgress } from "@/app/_components/closings/scanback-report";
import { formatDateTime } from "@/lib/format";
import { CATALOGS } from "@/lib/i18n/catalogs";
import { MAX_PDF_BYTES } from "@/lib/pdf/validate-pdf-upload";
import type { Locale } from "@/lib/i18n/locales";
import { prepareDatabase } from "@/lib/boot";
import { getAgentClosing, type AgentClosing } from "@/lib/settlement-agent/get-agent-closing";
import { provenLinkHolder } from "@/lib/next/link-sessions";
import { AgentLinkEnded } from "../../_card";
import { AgentUploadForm } from "./upload-form";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations("agent");
  return { title: t("title"), robots: { index: false, follow: false } };
}

/** Its server action uploads and matches the agent's scanbacks: a serverless host allows it this many seconds (docs/deploy.md). */
export const maxDuration = 300;

const MODE_KEY = { wet_sign: "modeWetSign", notarize: "modeNotarize" } as const;

const STATE_KEY = {
  scan_uploaded: "stateUploaded",
  accepted: "stateAccepted",
  rejected: "stateRejected",
} as const satisfies Partial<Record<AgentClosing["documents"][number]["executionStatus"], string>>;

/**
 * `/agent/closing/<id>`: the settlement agent's view of one package, reached with the session cookie
 * of its one-time link — the appointment, the borrowers' names, the ink documents, the table packet,
 * the scan upload and its page-by-page report. Nothing of another package, no review, no e-signed content.
 */
export default async function AgentClosingPage({ params }: { params: Promise<{ id: string }> }) {
  await connection();
  const { id } = await params;
  const { db } = await prepareDatabase();
  const principal = await provenLinkHolder(db, "agent", id);
  if (!principal) return <AgentLinkEnded />;
  const closing = await getAgentClosing(db, { principal, packageId: id });
  const { signing, report } = closing;
  const t = await getTranslations("agent");
  const locale = (await getLocale()) as Locale;
  return (
    <div className="space-y-6" style={{ ["--brand-color" as string]: closing.brand.color }}>
      <div className="overflow-hidden rounded-xl border border-slate-200">
        <BrandHeader brand={closing.brand} />
      </div>
      <header className="space-y-2">
        <p className="text-sm text-slate-700">{t("agentLine", { name: principal.user.name })}</p>
        <h1 className="text-2xl font-semibold tracking-tight text-slate-900">{signing.title}</h1>
        <dl className="grid gap-x-6 gap-y-1 text-sm text-slate-800 sm:grid-cols-[max-content_1fr]">
          <dt className="font-medium">{t("appointment")}</dt>
          <dd>{signing.closingAt ? formatDateTime(signing.closingAt, "long", locale) : t("notScheduled")}</dd>
          {signing.closingPlace ? (
            <>
              <dt className="font-medium">{t("place")}</dt>
              <dd>{signing.closingPlace}</dd>
            </>
          ) : null}
          <dt className="font-medium">{t("borrowers")}</dt>
          <dd>{closing.borrowers.join(", ")}</dd>
          <dt className="font-medium">{t("lender")}</dt>
          <dd>{closing.lenderName}</dd>
        </dl>
      </header>

      <Section compact id="agent-packet-heading" title={t("packetTitle")} description={t("packetDescription")}>
        <p>
          <a href={`/agent/closing/${id}/table-packet`} className={linkClass} download>
            {t("packetDownload")}
          </a>
        </p>
        <ul className="divide-y divide-slate-200 text-sm" data-testid="agent-documents">
          {closing.documents.map((d) => (
            <li key={d.id} className="py-2">
              <span className="font-medium text-slate-900">{d.name}</span> <span className="text-slate-600">{t("pageCount", { count: d.pageCount })}</span>
              <br />
              {d.executionMode in MODE_KEY ? t(MODE_KEY[d.executionMode as keyof typeof MODE_KEY]) : d.executionMode} ·{" "}
              {t(d.executionStatus in STATE_KEY ? STATE_KEY[d.executionStatus as keyof typeof STATE_KEY] : "stateWaiting")}
            </li>
          ))}
        </ul>
      </Section>

      <Section
        compact
        id="agent-scans-heading"
        title={t("uploadTitle")}
        description={t("uploadDescription")}
      >
        {/* The upload field's progress words come from the catalog in the browser. */}
        <NextIntlClientProvider locale={locale} messages={{ uploads: CATALOGS[locale].uploads }} timeZone="UTC">
          <AgentUploadForm
            packageId={id}
            maxBytes={MAX_PDF_BYTES}
            labels={{ files: t("filesLabel"), hint: t("filesHint"), submit: t("uploadButton"), pending: t("uploading") }}
          />
        </NextIntlClientProvider>
        <ScanbackScansProgress scans={closing.scans} refreshHref={`/agent/closing/${id}`} locale={locale} />
        <div className="space-y-2">
          <h3 className="text-base font-semibold text-slate-900">{t("pagesPerDocument")}</h3>
          <ScanbackDocumentsSummary report={report} locale={locale} />
        </div>
        <ScanbackPagesTable report={report} locale={locale} imageHref={(pageId) => `/agent/closing/${id}/pages/${pageId}`} />
      </Section>
    </div>
  );
}
