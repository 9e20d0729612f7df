"use client";

type Pdfjs = typeof import("pdfjs-dist");

let loading: Promise<Pdfjs> | undefined;

/**
 * pdf.js on demand: a dynamic import keeps it out of the page's first-load JavaScript. The worker
 * is bundled from the package and served from our own origin (no CDN); one worker is shared by
 * every document the page opens.
 */
export function loadPdfjs(): Promise<Pdfjs> {
  loading ??= import("pdfjs-dist")
    .then((pdfjs) => {
      if (!pdfjs.GlobalWorkerOptions.workerPort) {
        pdfjs.GlobalWorkerOptions.workerPort = new Worker(new URL("pdfjs-dist/build/pdf.worker.min.mjs", import.meta.url), { type: "module" });
      }
      return pdfjs;
    })
    .catch((error: unknown) => {
      loading = undefined;
      throw error;
    });
  return loading;
}
