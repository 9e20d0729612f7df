import type { ReactNode } from "react";
import { linkClass } from "@/components/ui/classes";
import type { ScanbackReport, ScanbackReportPage } from "@/lib/closings/scanback";

const PAGE_STATUS: Record<ScanbackReportPage["status"], string> = {
  matched: "Matched",
  assigned: "Assigned by hand",
  duplicate: "Duplicate (a later scan of this page is used)",
  other_package: "From another package: not used",
  unreadable: "Unreadable: assign or discard",
};

/** Without the manager's actions (the settlement agent's page), an unreadable page is left to the closing team. */
const UNREADABLE_READ_ONLY = "Unreadable: no code found (the cover sheet, a blank page or a damaged code); the closing team places it";

const cell = "px-3 py-2 align-top";

const plural = (n: number, one: string) => `${one}${n === 1 ? "" : "s"}`;

/** Per ink document: pages found of all, missing and duplicated, ready to attach, or its scan attached. */
export function ScanbackDocumentsSummary({ report }: { report: ScanbackReport }) {
  return (
    <ul className="space-y-1 text-sm" data-testid="scanback-documents">
      {report.documents.map((d) => (
        <li key={d.id}>
          <span className="font-medium">{d.name}</span>:{" "}
          {d.executionStatus === "scan_uploaded" || d.executionStatus === "accepted"
            ? "scan attached"
            : [
                `${d.pagesFound.length} of ${d.pageCount} pages`,
                d.missingPages.length > 0 ? `missing ${plural(d.missingPages.length, "page")} ${d.missingPages.join(", ")}` : null,
                d.duplicatePages.length > 0 ? `duplicate ${plural(d.duplicatePages.length, "page")} ${d.duplicatePages.join(", ")}` : null,
                d.ready ? "ready to attach" : null,
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
export function ScanbackPagesTable({
  report,
  imageHref,
  actions,
}: {
  report: ScanbackReport;
  imageHref: (pageId: string) => string;
  actions?: (page: ScanbackReportPage) => ReactNode;
}) {
  if (report.pages.length === 0) return <p className="text-sm text-slate-700">No uploaded page is waiting.</p>;
  return (
    <div className="overflow-x-auto">
      <table className={`w-full text-left text-sm ${actions ? "min-w-[720px]" : "min-w-[20rem]"}`} data-testid="scanback-report">
        <caption className="mb-2 text-left text-base font-semibold text-slate-900">Uploaded pages not yet attached</caption>
        <thead className="border-b border-slate-300 text-slate-700">
          <tr>
            <th scope="col" className={cell}>Page</th>
            <th scope="col" className={cell}>File</th>
            <th scope="col" className={cell}>Result</th>
            {actions ? <th scope="col" className={cell}>Action</th> : null}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-200">
          {report.pages.map((p) => (
            <tr key={p.id} data-testid="scanback-page">
              <td className={cell}>
                <a href={imageHref(p.id)} target="_blank" rel="noreferrer" className={linkClass}>
                  {/* eslint-disable-next-line @next/next/no-img-element -- a private, per-request scan image */}
                  <img src={imageHref(p.id)} alt={`Scanned page ${p.sourcePage} of ${p.sourceName}`} width={64} className="border border-slate-300" />
                </a>
              </td>
              <td className={`${cell} break-all`}>
                {p.sourceName}, page {p.sourcePage}
              </td>
              <td className={cell}>
                {p.status === "unreadable" && !actions ? UNREADABLE_READ_ONLY : PAGE_STATUS[p.status]}
                {p.documentName ? (
                  <>
                    <br />
                    {p.documentName}, page {p.pageNumber}
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
