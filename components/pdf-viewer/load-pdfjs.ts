"use client";

import type { PDFWorker } from "pdfjs-dist";

type Pdfjs = typeof import("pdfjs-dist");

let loading: Promise<{ pdfjs: Pdfjs; worker: PDFWorker }> | undefined;

/**
 * pdf.js on demand: a dynamic import keeps it out of the page's first-load JavaScript. The worker
 * is bundled from the package and served from our own origin (no CDN). One PDFWorker is created
 * and passed to every `getDocument`: pdf.js then leaves it running when a document is destroyed
 * (switching tabs, retrying), whereas a worker created from `GlobalWorkerOptions.workerPort` is torn
 * down with the first destroyed document and refuses the next one.
 */
export function loadPdfjs(): Promise<{ pdfjs: Pdfjs; worker: PDFWorker }> {
  // The worker starts loading its (large) script now, in parallel with the import of pdf.js itself;
  // messages posted to it before it runs are queued by the browser.
  loading ??= Promise.resolve()
    .then(() => new Worker(new URL("pdfjs-dist/build/pdf.worker.min.mjs", import.meta.url), { type: "module" }))
    .then(async (port) => {
      const pdfjs = await import("pdfjs-dist");
      return { pdfjs, worker: pdfjs.PDFWorker.create({ port }) };
    })
    .catch((error: unknown) => {
      loading = undefined;
      throw error;
    });
  return loading;
}
