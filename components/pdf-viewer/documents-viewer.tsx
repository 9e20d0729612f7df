"use client";

import { useTranslations } from "next-intl";
import { useCallback, useId, useRef, useState, type KeyboardEvent, type ReactNode } from "react";
import type { PageViewport } from "pdfjs-dist";
import { PdfDocumentView } from "./pdf-document-view";
import "./pdf-viewer.css";
import { focusRing } from "@/components/ui/classes";

export type ViewerDocument = {
  id: string;
  name: string;
  pageCount: number | null;
  /** Where the viewer reads the PDF (same origin, inline). */
  fileUrl: string;
  /** The original file as an attachment. */
  downloadUrl: string;
  /** Shown beside the name, e.g. "Signed" or "To sign". */
  status?: string;
};

export type DocumentsViewerProps = {
  documents: ViewerDocument[];
  initialDocumentId?: string;
  /** Controlled selection (e.g. a "Next field" guide that switches documents); uncontrolled without it. */
  selectedId?: string;
  onSelect?: (documentId: string) => void;
  /** Drawn over each page of the shown document (fields). */
  renderOverlay?: (documentId: string, pageNumber: number, viewport: PageViewport) => ReactNode;
};

/**
 * The documents of a package, one at a time: tabs (arrow keys move between them) with each
 * document's status, a download link for the original, and the PDF itself (pdf.js, loaded on demand).
 * Announcements are sparse: a document loaded (with its page count) or failed.
 */
export function DocumentsViewer({ documents, initialDocumentId, selectedId: controlledId, onSelect, renderOverlay }: DocumentsViewerProps) {
  const t = useTranslations("viewer");
  const baseId = useId();
  const [ownSelectedId, setOwnSelectedId] = useState(
    documents.some((d) => d.id === initialDocumentId) ? initialDocumentId! : documents[0]?.id,
  );
  const selectedId = controlledId ?? ownSelectedId;
  const setSelectedId = (id: string) => {
    setOwnSelectedId(id);
    onSelect?.(id);
  };
  const [announcement, setAnnouncement] = useState("");
  const tabs = useRef<(HTMLButtonElement | null)[]>([]);
  const announce = useCallback((message: string) => setAnnouncement(message), []);

  const selected = documents.find((d) => d.id === selectedId) ?? documents[0];
  if (!selected) {
    return <p className="rounded-lg border border-dashed border-slate-300 bg-white p-6 text-sm text-slate-700">{t("noDocuments")}</p>;
  }

  function onTabKey(e: KeyboardEvent<HTMLButtonElement>, index: number) {
    const last = documents.length - 1;
    const next = e.key === "ArrowRight" ? (index === last ? 0 : index + 1) : e.key === "ArrowLeft" ? (index === 0 ? last : index - 1) : e.key === "Home" ? 0 : e.key === "End" ? last : null;
    if (next === null) return;
    e.preventDefault();
    setSelectedId(documents[next]!.id);
    tabs.current[next]?.focus();
  }

  const panelId = `${baseId}-panel`;
  return (
    <section className="flex min-w-0 flex-col gap-3" aria-label={t("documents")}>
      <div className="flex flex-wrap items-end justify-between gap-2">
        {documents.length > 1 ? (
          <div role="tablist" aria-label={t("documentsInPackage")} className="flex max-w-full gap-1 overflow-x-auto">
            {documents.map((d, i) => {
              const active = d.id === selected.id;
              return (
                <button
                  key={d.id}
                  ref={(el) => {
                    tabs.current[i] = el;
                  }}
                  type="button"
                  role="tab"
                  id={`${baseId}-tab-${i}`}
                  aria-selected={active}
                  aria-controls={panelId}
                  tabIndex={active ? 0 : -1}
                  onClick={() => setSelectedId(d.id)}
                  onKeyDown={(e) => onTabKey(e, i)}
                  className={`flex min-h-10 shrink-0 flex-col items-start rounded-t-md border-b-2 px-3 py-1.5 text-left text-sm ${focusRing} ${
                    active ? "border-blue-700 bg-white font-semibold text-slate-900" : "border-transparent text-slate-700 hover:bg-white"
                  }`}
                >
                  <span className="max-w-56 truncate">{d.name}</span>
                  {d.status ? <span className="text-xs font-normal text-slate-700">{d.status}</span> : null}
                </button>
              );
            })}
          </div>
        ) : (
          <h2 className="text-base font-semibold text-slate-900">
            {selected.name}
            {selected.status ? <span className="ml-2 text-sm font-normal text-slate-700">{selected.status}</span> : null}
          </h2>
        )}
        <a
          href={selected.downloadUrl}
          download
          className={`inline-flex h-10 items-center rounded-md px-2 text-sm font-medium text-blue-800 underline hover:text-blue-950 ${focusRing}`}
        >
          {t("download")}<span className="sr-only">&nbsp;{selected.name}</span>
        </a>
      </div>
      <div
        id={panelId}
        role={documents.length > 1 ? "tabpanel" : undefined}
        aria-labelledby={documents.length > 1 ? `${baseId}-tab-${documents.indexOf(selected)}` : undefined}
        className="min-w-0"
      >
        <PdfDocumentView
          key={selected.id}
          name={selected.name}
          fileUrl={selected.fileUrl}
          downloadUrl={selected.downloadUrl}
          expectedPageCount={selected.pageCount}
          announce={announce}
          renderOverlay={renderOverlay ? (page, viewport) => renderOverlay(selected.id, page, viewport) : undefined}
        />
      </div>
      <p role="status" className="sr-only">
        {announcement}
      </p>
    </section>
  );
}
