"use client";

import { useTranslations } from "next-intl";
import { memo, useEffect, useRef, useState, type ReactNode } from "react";
import type { PageViewport, PDFDocumentProxy, PDFPageProxy, RenderTask } from "pdfjs-dist";
import { loadPdfjs } from "./load-pdfjs";

export type PageSize = { width: number; height: number };

type PdfPageProps = {
  pdf: PDFDocumentProxy | null;
  pageNumber: number;
  pageCount: number;
  /** The page's size at scale 1 (PDF points) as far as it is known; the placeholder keeps this ratio. */
  size: PageSize;
  /** CSS pixels per PDF point; null until the scroll box is measured (the page is then as wide as the box). */
  scale: number | null;
  /** Inside the render window (visible page ± 2): draw the canvas; outside, only the placeholder. */
  active: boolean;
  onSize: (pageNumber: number, size: PageSize) => void;
  onPainted: (pageNumber: number) => void;
  /**
   * Drawn over the page (fields), with the page's viewport at the current scale for converting
   * between PDF and screen coordinates. Given, the page is read as soon as the PDF is loaded, even
   * outside the render window, so overlays of every page are in place for focus and scrolling.
   */
  overlay?: (pageNumber: number, viewport: PageViewport) => ReactNode;
};

/** The largest canvas drawn for one page (pixels): beyond it the sharp pass lowers its resolution. */
const MAX_CANVAS_PIXELS = 16_777_216;
/** The quick first pass draws at this fraction of CSS resolution, then the sharp pass at devicePixelRatio. */
const QUICK_OUTPUT_SCALE = 0.5;

/**
 * One page: a placeholder of the page's ratio that, while active, holds a canvas (a quick
 * low-resolution paint, then a sharp one at devicePixelRatio) and a pdf.js text layer so the text can
 * be selected and read by assistive technology. The text layer is laid out in CSS units of
 * `--total-scale-factor`, so zooming only changes a custom property and redraws the canvas.
 */
export const PdfPage = memo(function PdfPage({ pdf, pageNumber, pageCount, size, scale, active, onSize, onPainted, overlay }: PdfPageProps) {
  const t = useTranslations("viewer");
  const canvasHost = useRef<HTMLDivElement>(null);
  const [proxy, setProxy] = useState<PDFPageProxy | null>(null);
  const wantProxy = Boolean(overlay);

  useEffect(() => {
    if (!pdf || !wantProxy) return;
    let cancelled = false;
    pdf
      .getPage(pageNumber)
      .then((page) => {
        if (cancelled) return;
        const natural = page.getViewport({ scale: 1 });
        onSize(pageNumber, { width: natural.width, height: natural.height });
        setProxy(page);
      })
      .catch((error: unknown) => {
        if (!cancelled) console.error("pdf page load failed", pageNumber, error);
      });
    return () => {
      cancelled = true;
    };
  }, [pdf, pageNumber, wantProxy, onSize]);
  const textHost = useRef<HTMLDivElement>(null);
  // The text layer is built after the page's first paint, so it never delays the pixels.
  const [wantText, setWantText] = useState(false);

  useEffect(() => {
    const host = canvasHost.current;
    if (!pdf || !active || !host || scale === null) return;
    let cancelled = false;
    let task: RenderTask | undefined;
    const paint = async () => {
      const page = await pdf.getPage(pageNumber);
      if (cancelled) return;
      const natural = page.getViewport({ scale: 1 });
      onSize(pageNumber, { width: natural.width, height: natural.height });
      const viewport = page.getViewport({ scale });
      const dpr = window.devicePixelRatio || 1;
      const sharp = Math.min(dpr, Math.sqrt(MAX_CANVAS_PIXELS / (viewport.width * viewport.height)));
      // After a zoom the previous canvas stays, stretched by CSS, as the quick preview.
      const passes = host.firstChild ? [sharp] : [Math.min(QUICK_OUTPUT_SCALE, sharp), sharp];
      for (const [i, outputScale] of passes.entries()) {
        if (i > 0 && outputScale === passes[i - 1]) break;
        const canvas = document.createElement("canvas");
        canvas.width = Math.max(1, Math.floor(viewport.width * outputScale));
        canvas.height = Math.max(1, Math.floor(viewport.height * outputScale));
        canvas.className = "absolute inset-0 h-full w-full";
        canvas.setAttribute("aria-hidden", "true");
        task = page.render({
          canvas,
          viewport,
          transform: outputScale === 1 ? undefined : [outputScale, 0, 0, outputScale, 0, 0],
        });
        await task.promise;
        if (cancelled) return;
        host.replaceChildren(canvas);
        if (i === 0) {
          onPainted(pageNumber);
          setWantText(true);
        }
      }
    };
    paint().catch((error: unknown) => {
      if (!cancelled && (error as { name?: string })?.name !== "RenderingCancelledException") {
        console.error("pdf page render failed", pageNumber, error);
      }
    });
    return () => {
      cancelled = true;
      task?.cancel();
    };
  }, [pdf, pageNumber, scale, active, onSize, onPainted]);

  // Outside the render window the canvas is dropped (memory); the text layer stays for find and reading.
  useEffect(() => {
    if (!active) canvasHost.current?.replaceChildren();
  }, [active]);

  useEffect(() => {
    const host = textHost.current;
    if (!pdf || !wantText || !host) return;
    let cancelled = false;
    let layer: { cancel: () => void } | undefined;
    (async () => {
      const [{ pdfjs }, page] = await Promise.all([loadPdfjs(), pdf.getPage(pageNumber)]);
      if (cancelled) return;
      const textLayer = new pdfjs.TextLayer({ textContentSource: page.streamTextContent(), container: host, viewport: page.getViewport({ scale: 1 }) });
      layer = textLayer;
      host.replaceChildren();
      await textLayer.render();
    })().catch((error: unknown) => {
      if (!cancelled) console.error("pdf text layer failed", pageNumber, error);
    });
    return () => {
      cancelled = true;
      layer?.cancel();
      host.replaceChildren();
    };
  }, [pdf, pageNumber, wantText]);

  const style: React.CSSProperties & Record<`--${string}`, string> = {
    ...(scale === null
      ? { width: "100%", aspectRatio: `${size.width} / ${size.height}` }
      : { width: `${Math.floor(size.width * scale)}px`, height: `${Math.floor(size.height * scale)}px` }),
    "--total-scale-factor": String(scale ?? 1),
    "--scale-round-x": "1px",
    "--scale-round-y": "1px",
  };

  return (
    <div
      role="group"
      aria-label={t("pageOf", { page: pageNumber, count: pageCount })}
      data-page-number={pageNumber}
      className="pdf-page relative mx-auto bg-white shadow-sm ring-1 ring-slate-300"
      style={style}
    >
      <div ref={canvasHost} className="absolute inset-0" />
      <div ref={textHost} className="textLayer" />
      {overlay && proxy && scale !== null ? overlay(pageNumber, proxy.getViewport({ scale })) : null}
    </div>
  );
});
