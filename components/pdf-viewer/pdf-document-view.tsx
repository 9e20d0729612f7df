"use client";

import { useTranslations } from "next-intl";
import { useCallback, useEffect, useId, useLayoutEffect, useRef, useState, type FormEvent, type ReactNode } from "react";
import type { PageViewport, PDFDocumentLoadingTask, PDFDocumentProxy } from "pdfjs-dist";
import { loadPdfjs } from "./load-pdfjs";
import { PdfPage, type PageSize } from "./pdf-page";
import { clampScale, fitWidthScale, mostVisiblePage, pagesToRender, parsePageJump, stepZoom, zoomPercent } from "./viewer-math";
import { focusRing } from "@/components/ui/classes";

/** Until the PDF says otherwise, pages are US Letter: the scroll height is about right from the first paint. */
const LETTER: PageSize = { width: 612, height: 792 };
/** Space around a page inside the scroll box at fit width (CSS px, each side). */
const GUTTER = 8;
const THRESHOLDS = Array.from({ length: 11 }, (_, i) => i / 10);

export type PdfDocumentViewProps = {
  name: string;
  fileUrl: string;
  downloadUrl: string;
  /** From the database; fixes the number of placeholders before the file is loaded. */
  expectedPageCount: number | null;
  announce: (message: string) => void;
  /** Drawn over each page (see `PdfPage`'s `overlay`). */
  renderOverlay?: (pageNumber: number, viewport: PageViewport) => ReactNode;
};

type Anchor = { page: number; fraction: number };

async function fetchPdf(url: string, signal: AbortSignal): Promise<Uint8Array> {
  const response = await fetch(url, { credentials: "same-origin", signal });
  if (!response.ok) throw new Error(`GET ${url}: HTTP ${response.status}`);
  return new Uint8Array(await response.arrayBuffer());
}

/** One document: toolbar (page x of n, page jump, zoom) and the scroll box of virtualised pages. */
export function PdfDocumentView({ name, fileUrl, downloadUrl, expectedPageCount, announce, renderOverlay }: PdfDocumentViewProps) {
  const t = useTranslations("viewer");
  const id = useId();
  const root = useRef<HTMLDivElement>(null);
  const scroller = useRef<HTMLDivElement>(null);
  const content = useRef<HTMLDivElement>(null);
  const anchor = useRef<Anchor | null>(null);
  const [pdf, setPdf] = useState<PDFDocumentProxy | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);
  const [sizes, setSizes] = useState<Record<number, PageSize>>({});
  const [containerWidth, setContainerWidth] = useState(0);
  const [zoom, setZoom] = useState<"fit" | number>("fit");
  const [current, setCurrent] = useState(1);
  const [jump, setJump] = useState("");
  const [jumpError, setJumpError] = useState<string | null>(null);

  const pageCount = pdf?.numPages ?? (expectedPageCount && expectedPageCount > 0 ? expectedPageCount : 1);
  const baseSize = sizes[1] ?? LETTER;
  const fitScale = fitWidthScale(containerWidth, baseSize.width, GUTTER);
  const scale = zoom === "fit" ? fitScale : zoom;
  const measured = containerWidth > 0;

  useEffect(() => {
    let cancelled = false;
    let task: PDFDocumentLoadingTask | undefined;
    let loaded: PDFDocumentProxy | undefined;
    const abort = new AbortController();
    // The file and pdf.js (with its worker) load in parallel: the first paint waits for the slower one only.
    Promise.all([loadPdfjs(), fetchPdf(fileUrl, abort.signal)])
      .then(async ([{ pdfjs, worker }, data]) => {
        if (cancelled) return;
        task = pdfjs.getDocument({ data, worker, isEvalSupported: false, enableXfa: false });
        const doc = await task.promise;
        loaded = doc;
        const first = (await doc.getPage(1)).getViewport({ scale: 1 });
        if (cancelled) return;
        setSizes((known) => ({ ...known, 1: { width: first.width, height: first.height } }));
        setPdf(doc);
        announce(t("loaded", { name, count: doc.numPages }));
      })
      .catch((cause: unknown) => {
        if (cancelled) return;
        console.error("pdf load failed", cause);
        const message = t("loadFailed", { name });
        setError(message);
        announce(message);
      });
    return () => {
      cancelled = true;
      abort.abort();
      void task?.destroy();
      void loaded?.destroy();
    };
  }, [fileUrl, name, attempt, announce, t]);

  useLayoutEffect(() => {
    const box = scroller.current;
    if (!box) return;
    const measure = () => setContainerWidth(box.clientWidth);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(box);
    return () => observer.disconnect();
  }, []);

  useEffect(() => {
    const box = scroller.current;
    if (!box) return;
    const visible = new Map<number, number>();
    const observer = new IntersectionObserver(
      (entries) => {
        for (const entry of entries) {
          const page = Number((entry.target as HTMLElement).dataset.pageNumber);
          if (entry.isIntersecting) visible.set(page, entry.intersectionRect.height);
          else visible.delete(page);
        }
        setCurrent((previous) => mostVisiblePage(visible, previous));
      },
      { root: box, threshold: THRESHOLDS },
    );
    box.querySelectorAll("[data-page-number]").forEach((el) => observer.observe(el));
    return () => observer.disconnect();
  }, [pageCount]);

  // After a zoom, the page being read stays at the same place in the scroll box.
  useLayoutEffect(() => {
    const box = scroller.current;
    const keep = anchor.current;
    anchor.current = null;
    if (!box || !keep) return;
    const el = box.querySelector<HTMLElement>(`[data-page-number="${keep.page}"]`);
    if (el) box.scrollTop = el.offsetTop + keep.fraction * el.offsetHeight;
  }, [scale]);

  const rememberPosition = useCallback(() => {
    const box = scroller.current;
    const el = box?.querySelector<HTMLElement>(`[data-page-number="${current}"]`);
    if (box && el) anchor.current = { page: current, fraction: (box.scrollTop - el.offsetTop) / el.offsetHeight };
  }, [current]);

  const zoomTo = useCallback(
    (next: "fit" | number) => {
      rememberPosition();
      setZoom(next === "fit" ? "fit" : clampScale(next));
    },
    [rememberPosition],
  );

  // Pinch on touch screens and trackpads (ctrl + wheel): preview with a CSS transform, settle on release.
  useEffect(() => {
    const box = scroller.current;
    const inner = content.current;
    if (!box || !inner) return;
    let start: { distance: number } | null = null;
    let ratio = 1;
    const distance = (t: TouchList) => Math.hypot(t[0]!.clientX - t[1]!.clientX, t[0]!.clientY - t[1]!.clientY);
    const onTouchStart = (e: TouchEvent) => {
      if (e.touches.length === 2) {
        start = { distance: distance(e.touches) };
        ratio = 1;
      }
    };
    const onTouchMove = (e: TouchEvent) => {
      if (!start || e.touches.length !== 2) return;
      e.preventDefault();
      ratio = distance(e.touches) / start.distance;
      inner.style.transformOrigin = `${box.scrollLeft + box.clientWidth / 2}px ${box.scrollTop + box.clientHeight / 2}px`;
      inner.style.transform = `scale(${ratio})`;
    };
    const onTouchEnd = () => {
      if (!start) return;
      start = null;
      inner.style.transform = "";
      if (Math.abs(ratio - 1) > 0.05) box.dispatchEvent(new CustomEvent("pdf-pinch", { detail: ratio }));
    };
    const onWheel = (e: WheelEvent) => {
      if (!e.ctrlKey) return;
      e.preventDefault();
      box.dispatchEvent(new CustomEvent("pdf-pinch", { detail: Math.exp(-e.deltaY / 100) }));
    };
    box.addEventListener("touchstart", onTouchStart, { passive: true });
    box.addEventListener("touchmove", onTouchMove, { passive: false });
    box.addEventListener("touchend", onTouchEnd);
    box.addEventListener("touchcancel", onTouchEnd);
    box.addEventListener("wheel", onWheel, { passive: false });
    return () => {
      box.removeEventListener("touchstart", onTouchStart);
      box.removeEventListener("touchmove", onTouchMove);
      box.removeEventListener("touchend", onTouchEnd);
      box.removeEventListener("touchcancel", onTouchEnd);
      box.removeEventListener("wheel", onWheel);
    };
  }, []);

  useEffect(() => {
    const box = scroller.current;
    if (!box) return;
    const onPinch = (e: Event) => zoomTo(scale * (e as CustomEvent<number>).detail);
    box.addEventListener("pdf-pinch", onPinch);
    return () => box.removeEventListener("pdf-pinch", onPinch);
  }, [scale, zoomTo]);

  const onSize = useCallback((page: number, size: PageSize) => {
    setSizes((known) => {
      const old = known[page];
      return old && old.width === size.width && old.height === size.height ? known : { ...known, [page]: size };
    });
  }, []);

  const onPainted = useCallback(() => {
    const el = root.current;
    if (!el || el.dataset.firstPagePainted) return;
    el.dataset.firstPagePainted = "true";
    performance.mark("pdf-first-page-painted", { detail: { fileUrl } });
  }, [fileUrl]);

  function goTo(page: number) {
    const box = scroller.current;
    const el = box?.querySelector<HTMLElement>(`[data-page-number="${page}"]`);
    if (box && el) box.scrollTop = el.offsetTop - GUTTER;
    setCurrent(page);
  }

  function onJump(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const page = parsePageJump(jump, pageCount);
    if (page === null) {
      setJumpError(t("jumpError", { count: pageCount }));
      return;
    }
    setJumpError(null);
    setJump("");
    goTo(page);
  }

  const rendered = new Set(pagesToRender(current, pageCount));
  const jumpErrorId = `${id}-jump-error`;
  const button =
    `inline-flex h-10 min-w-10 items-center justify-center rounded-md border border-slate-300 bg-white px-2 text-sm font-medium text-slate-900 hover:bg-slate-100 ${focusRing} disabled:cursor-not-allowed disabled:opacity-50`;

  return (
    <div ref={root} className="flex flex-col gap-2" data-pdf-document={fileUrl} data-current-page={current}>
      <div className="flex flex-wrap items-center justify-between gap-2 text-sm" role="toolbar" aria-label={t("toolbar", { name })}>
        <div className="flex items-center gap-2">
          <p className="whitespace-nowrap text-slate-800" aria-live="off">
            {t("pageOf", { page: current, count: pageCount })}
          </p>
          <form onSubmit={onJump} className="flex items-center gap-1" noValidate>
            <label htmlFor={`${id}-jump`} className="sr-only">
              {t("goToPage")}
            </label>
            <input
              id={`${id}-jump`}
              type="text"
              inputMode="numeric"
              autoComplete="off"
              placeholder={t("pagePlaceholder")}
              value={jump}
              onChange={(e) => setJump(e.target.value)}
              aria-invalid={jumpError ? true : undefined}
              aria-describedby={jumpError ? jumpErrorId : undefined}
              className="h-10 w-16 rounded-md border border-slate-300 px-2 text-slate-900"
            />
            <button type="submit" className={button}>
              {t("go")}
            </button>
          </form>
        </div>
        <div className="flex items-center gap-1">
          <button type="button" className={button} onClick={() => zoomTo(stepZoom(scale, "out"))} aria-label={t("zoomOut")} disabled={scale <= 0.25}>
            <span aria-hidden="true">−</span>
          </button>
          <output className="w-14 text-center tabular-nums text-slate-800" aria-label={t("zoomLevel")}>
            {measured ? t("zoomPercent", { percent: zoomPercent(scale) }) : ""}
          </output>
          <button type="button" className={button} onClick={() => zoomTo(stepZoom(scale, "in"))} aria-label={t("zoomIn")} disabled={scale >= 5}>
            <span aria-hidden="true">+</span>
          </button>
          <button
            type="button"
            className={`${button} aria-pressed:border-slate-500 aria-pressed:bg-slate-200`}
            onClick={() => zoomTo("fit")}
            aria-pressed={zoom === "fit"}
          >
            {t("fitWidth")}
          </button>
        </div>
      </div>
      {jumpError ? (
        <p id={jumpErrorId} className="text-sm text-red-800">
          {jumpError}
        </p>
      ) : null}

      {error ? (
        <div role="alert" className="rounded-md border border-red-300 bg-red-50 p-4 text-sm text-red-900">
          <p>{error}</p>
          <div className="mt-3 flex gap-3">
            <button type="button" className={button} onClick={() => (setError(null), setAttempt((n) => n + 1))}>
              {t("tryAgain")}
            </button>
            <a className="inline-flex h-10 items-center font-medium text-blue-800 underline" href={downloadUrl}>
              {t("downloadNamed", { name })}
            </a>
          </div>
        </div>
      ) : null}
      <div
        ref={scroller}
        hidden={Boolean(error)}
        tabIndex={0}
        role="region"
        aria-label={t("region", { name, count: pageCount })}
        aria-busy={!pdf}
        className={`relative h-[70vh] min-h-72 overflow-auto rounded-md bg-slate-200 ${focusRing}`}
        style={{ touchAction: "pan-x pan-y", overscrollBehavior: "contain" }}
      >
          <div
            ref={content}
            className={`flex min-w-full flex-col items-center gap-3 py-2 ${measured ? "w-max" : "w-full"}`}
            style={{ paddingInline: GUTTER }}
          >
            {Array.from({ length: pageCount }, (_, i) => i + 1).map((n) => (
              <PdfPage
                key={n}
                pdf={pdf}
                pageNumber={n}
                pageCount={pageCount}
                size={sizes[n] ?? baseSize}
                scale={measured ? scale : null}
                active={measured && rendered.has(n)}
                onSize={onSize}
                onPainted={onPainted}
                overlay={renderOverlay}
              />
            ))}
          </div>
          {!pdf ? <p className="sr-only">{t("loading", { name })}</p> : null}
      </div>
    </div>
  );
}
