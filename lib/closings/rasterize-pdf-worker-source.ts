/**
 * The scan rasterizer, as source text run with `new Worker(source, { eval: true })` (a string survives
 * every bundler this code goes through without a worker file to locate). It renders a PDF's pages
 * with pdfjs-dist onto `@napi-rs/canvas` (a prebuilt native module shipped in node_modules: no system
 * binary) and sends each page back as a JPEG as soon as it is done, so the main thread can hold every
 * page to a time budget and terminate the worker when one runs over.
 *
 * Protocol: workerData `{ searchFrom, bytes, pageCount, longEdge, quality }`; messages out
 * `{ type: "page", page, bytes }` per page, then `{ type: "done" }`, or `{ type: "error", message }`.
 */
export const RASTERIZE_WORKER_SOURCE = String.raw`
"use strict";
const { parentPort, workerData } = require("node:worker_threads");
const { createRequire } = require("node:module");
const path = require("node:path");
const { pathToFileURL } = require("node:url");

function resolveFrom(name) {
  let lastError;
  for (const dir of workerData.searchFrom) {
    try {
      return createRequire(path.join(dir, "noop.js")).resolve(name);
    } catch (error) {
      lastError = error;
    }
  }
  throw lastError;
}

(async () => {
  try {
    const { createCanvas } = require(resolveFrom("@napi-rs/canvas"));
    const pdfjs = await import(pathToFileURL(resolveFrom("pdfjs-dist/legacy/build/pdf.mjs")).href);
    const doc = await pdfjs.getDocument({
      data: workerData.bytes,
      isEvalSupported: false,
      disableFontFace: true,
      useSystemFonts: false,
      verbosity: 0,
    }).promise;
    const count = Math.min(doc.numPages, workerData.pageCount);
    for (let number = 1; number <= count; number++) {
      const page = await doc.getPage(number);
      const unit = page.getViewport({ scale: 1 });
      const viewport = page.getViewport({ scale: workerData.longEdge / Math.max(unit.width, unit.height) });
      const canvas = createCanvas(Math.max(1, Math.round(viewport.width)), Math.max(1, Math.round(viewport.height)));
      const context = canvas.getContext("2d");
      context.fillStyle = "#ffffff";
      context.fillRect(0, 0, canvas.width, canvas.height);
      await page.render({ canvasContext: context, viewport, canvas }).promise;
      const jpeg = await canvas.encode("jpeg", workerData.quality);
      page.cleanup();
      parentPort.postMessage({ type: "page", page: number, bytes: new Uint8Array(jpeg.buffer, jpeg.byteOffset, jpeg.byteLength) });
    }
    await doc.destroy();
    parentPort.postMessage({ type: "done" });
  } catch (error) {
    parentPort.postMessage({ type: "error", message: String((error && error.message) || error) });
  }
})();
`;
