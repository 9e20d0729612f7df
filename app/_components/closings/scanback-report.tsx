import type { ReactNode } from "react";
import { getTranslations } from "next-intl/server";
import { linkClass } from "@/components/ui/classes";
import type { ScanbackReport, ScanbackReportPage, ScanbackScanStatus } from "@/lib/closings/scanback";
import { formatDateTime } from "@/lib/format";
import { ScanProgressRefresh } from "./scan-progress-refresh";
import { DEFAULT_LOCALE, type Locale } from "@/lib/i18n/locales";

const STATUS_KEY = {
  matched: "statusMatched",
  assigned: "statusAssigned",
  duplicate: "statusDuplicate",
  other_package: "statusOtherPackage",
  unreadable: "statusUnreadable",
} as const satisfies Record<ScanbackReportPage["status"], string>;

/** The report's words: the manager's console is English; the settlement agent's page passes its own locale. */
const words = (locale: Locale = DEFAULT_LOCALE) => getTranslations({ locale, namespace: "scanback" });

const cell = "px-3 py-2 align-top";

/** Per ink document: pages found of all, missing and duplicated, ready to attach, or its scan attached. */
export async function ScanbackDocumentsSummary({ report, locale }: { report: ScanbackReport; locale?: Locale }) {
  const t = await words(locale);
  return (
    <ul className="space-y-1 text-sm" data-testid="scanback-documents">
      {report.documents.map((d) => (
        <li key={d.id}>
          <span className="font-medium">{d.name}</span>:{" "}
          {d.executionStatus === "scan_uploaded" || d.executionStatus === "accepted"
            ? t("scanAttached")
            : [
                t("pagesOf", { found: d.pagesFound.length, total: d.pageCount }),
                d.missingPages.length > 0 ? t("missing", { count: d.missingPages.length, pages: d.missingPages.join(", ") }) : null,
                d.duplicatePages.length > 0 ? t("duplicate", { count: d.duplicatePages.length, pages: d.duplicatePages.join(", ") }) : null,
                d.ready ? t("ready") : null,
              ]
                .filter(Boolean)
                .join(" · ")}
        </li>
      ))}
    </ul>
  );
}

/**
 * Every open page of the report: its thumbnail (opening the full image at `imageHref`), the file and
 * page it came from, and what it matched; `actions` adds a column (the manager's assign and discard).
 */
export async function ScanbackPagesTable({
  report,
  imageHref,
  actions,
  locale,
}: {
  report: ScanbackReport;
  imageHref: (pageId: string) => string;
  actions?: (page: ScanbackReportPage) => ReactNode;
  locale?: Locale;
}) {
  const t = await words(locale);
  if (report.pages.length === 0) return <p className="text-sm text-slate-700">{t("noneWaiting")}</p>;
  return (
    <div className="overflow-x-auto">
      <table className={`w-full text-left text-sm ${actions ? "min-w-[720px]" : "min-w-[20rem]"}`} data-testid="scanback-report">
        <caption className="mb-2 text-left text-base font-semibold text-slate-900">{t("caption")}</caption>
        <thead className="border-b border-slate-300 text-slate-700">
          <tr>
            <th scope="col" className={cell}>{t("columnPage")}</th>
            <th scope="col" className={cell}>{t("columnFile")}</th>
            <th scope="col" className={cell}>{t("columnResult")}</th>
            {actions ? <th scope="col" className={cell}>{t("columnAction")}</th> : null}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-200">
          {report.pages.map((p) => (
            <tr key={p.id} data-testid="scanback-page">
              <td className={cell}>
                <a href={imageHref(p.id)} target="_blank" rel="noreferrer" className={linkClass}>
                  {/* eslint-disable-next-line @next/next/no-img-element -- a private, per-request scan image */}
                  <img src={imageHref(p.id)} alt={t("imageAlt", { page: p.sourcePage, file: p.sourceName })} width={64} className="border border-slate-300" />
                </a>
              </td>
              <td className={`${cell} break-all`}>
                {t("sourcePage", { file: p.sourceName, page: p.sourcePage })}
              </td>
              <td className={cell}>
                {p.status === "unreadable" && !actions ? t("unreadableReadOnly") : t(STATUS_KEY[p.status])}
                {p.documentName ? (
                  <>
                    <br />
                    {t("documentPage", { document: p.documentName, page: p.pageNumber ?? "" })}
                  </>
                ) : null}
              </td>
              {actions ? <td className={`${cell} space-y-3`}>{actions(p)}</td> : null}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/**
 * The package's scans still being read (pages read of all, as a progress bar) and those that failed
 * (with the reason). While one is being read the page refreshes itself; `refreshHref` is the page
 * itself, for a browser without JavaScript.
 */
export async function ScanbackScansProgress({ scans, refreshHref, locale }: { scans: ScanbackScanStatus[]; refreshHref: string; locale?: Locale }) {
  if (scans.length === 0) return null;
  const t = await words(locale);
  const reading = scans.some((s) => s.status === "queued" || s.status === "processing");
  return (
    <div className="space-y-2" data-testid="scanback-scans">
      <h3 className="text-sm font-semibold text-slate-900">{t("scansHeading")}</h3>
      <div role="status" aria-live="polite">
      <ul className="space-y-2 text-sm">
        {scans.map((scan) => {
          const time = formatDateTime(scan.createdAt, "medium", locale);
          if (scan.status === "failed") {
            return (
              <li key={scan.id} data-testid="scanback-scan" data-status="failed" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-red-950">
                {t("scanFailed", { time, total: scan.totalPages, reason: scan.error ?? "" })}
              </li>
            );
          }
          return (
            <li key={scan.id} data-testid="scanback-scan" data-status={scan.status} className="space-y-1">
              <p>{scan.processedPages === 0 ? t("scanQueued", { time, total: scan.totalPages }) : t("scanReading", { time, done: scan.processedPages, total: scan.totalPages })}</p>
              <progress className="h-2 w-full max-w-md accent-slate-700" max={scan.totalPages} value={scan.processedPages} aria-label={t("scanProgress")}>
                {scan.processedPages} / {scan.totalPages}
              </progress>
            </li>
          );
        })}
      </ul>
      </div>
      {reading ? (
        <>
          <ScanProgressRefresh />
          <p className="text-sm">
            <a href={refreshHref} className={linkClass}>
              {t("scanRefresh")}
            </a>
          </p>
        </>
      ) : null}
    </div>
  );
}
