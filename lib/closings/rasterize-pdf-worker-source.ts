/**
 * The scan page worker, as source text run with `new Worker(source, { eval: true })` (a string
 * survives every bundler this code goes through without a worker file to locate). One worker serves
 * one file, one page per request, so the main thread can give pages turns fairly and hold each to a
 * time budget, terminating the worker when one runs over.
 *
 * A page that is one full-page JPEG and nothing else (what a scanner writes, and what `buildScanPdf`
 * writes) is answered with that JPEG's bytes as they are: no rendering, no re-encoding, the scan at
 * its own resolution. It must be drawn upright and unstretched over the whole page (only `q`, `Q`,
 * `cm` and one `Do` in the content, an axis-aligned matrix, no page /Rotate), 8-bit greyscale or RGB,
 * with no mask, /Decode or EXIF segment; anything else is rendered. Rendering is pdfjs-dist onto
 * `@napi-rs/canvas` (a prebuilt native module in node_modules: no system binary), loaded only when a
 * page needs it, then encoded as a JPEG.
 *
 * Protocol: workerData `{ searchFrom, bytes, longEdge, quality, maxImagePixels, codeCorner? }`. Out first
 * `{ type: "ready", pageCount }`; then, for each `{ type: "page", page }` in,
 * `{ type: "page", page, bytes, source: "embedded" | "rendered", width, height, code? }`: with
 * `codeCorner`, a rendered page's `code` is the first QR code found in its pixels (or null), looked
 * for while its JPEG is encoded. On failure
 * `{ type: "error", reason, message }`: `unavailable` (the renderer's modules cannot be loaded),
 * `too_large` (an embedded image over `maxImagePixels`) or `unreadable`.
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

class Refusal extends Error {
  constructor(reason, message) {
    super(message);
    this.reason = reason;
  }
}

// ---- one full-page JPEG, taken as it is ----

/** Width, height and components of a JPEG from its frame header; null when it is not a plain 8-bit baseline or progressive JPEG without EXIF. */
function jpegFrame(bytes) {
  if (bytes.length < 4 || bytes[0] !== 0xff || bytes[1] !== 0xd8) return null;
  let at = 2;
  while (at + 4 <= bytes.length) {
    if (bytes[at] !== 0xff) return null;
    const marker = bytes[at + 1];
    if (marker === 0xff) { at++; continue; }
    const length = (bytes[at + 2] << 8) | bytes[at + 3];
    if (length < 2) return null;
    if (marker === 0xe1 && bytes.length >= at + 10 && String.fromCharCode(...bytes.subarray(at + 4, at + 8)) === "Exif") return null;
    if (marker === 0xc0 || marker === 0xc1 || marker === 0xc2) {
      if (at + 10 > bytes.length || bytes[at + 4] !== 8) return null;
      return { height: (bytes[at + 5] << 8) | bytes[at + 6], width: (bytes[at + 7] << 8) | bytes[at + 8], components: bytes[at + 9] };
    }
    // Any other frame type (lossless, arithmetic, hierarchical) or the scan itself before a frame: render.
    if ((marker >= 0xc3 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) || marker === 0xda) return null;
    at += 2 + length;
  }
  return null;
}

const TOKEN = /\s*(?:(\/[^\s\/\[\]()<>{}%]+)|([+-]?(?:\d+\.?\d*|\.\d+))|([A-Za-z'"*]+)|(\S))/gy;

/** The one image a page's content draws and the matrix it is drawn with, when the content is only q, Q, cm and one Do; else null. */
function soleImageDraw(content) {
  const stack = [];
  let ctm = [1, 0, 0, 1, 0, 0];
  const operands = [];
  let draw = null;
  let at = 0;
  let match;
  while (content.slice(at).trim() !== "") {
    TOKEN.lastIndex = at;
    if (!(match = TOKEN.exec(content))) return null;
    at = TOKEN.lastIndex;
    const [, name, number, operator, other] = match;
    if (other !== undefined) return null;
    if (name !== undefined || number !== undefined) {
      if (operands.length >= 6) return null;
      operands.push(name !== undefined ? name : Number(number));
      continue;
    }
    if (operator === "q" && operands.length === 0) stack.push(ctm);
    else if (operator === "Q" && operands.length === 0) {
      if (stack.length === 0) return null;
      ctm = stack.pop();
    } else if (operator === "cm" && operands.length === 6 && operands.every((v) => typeof v === "number")) {
      const [a, b, c, d, e, f] = operands;
      const [A, B, C, D, E, F] = ctm;
      ctm = [a * A + b * C, a * B + b * D, c * A + d * C, c * B + d * D, e * A + f * C + E, e * B + f * D + F];
      operands.length = 0;
      continue;
    } else if (operator === "Do" && operands.length === 1 && typeof operands[0] === "string" && !draw) {
      draw = { name: operands[0], ctm };
    } else return null;
    operands.length = 0;
  }
  return operands.length === 0 ? draw : null;
}

function embeddedJpeg(lib, doc, pageIndex) {
  const { PDFName, PDFArray, PDFDict, PDFRawStream, PDFNumber, decodePDFRawStream } = lib;
  const page = doc.getPage(pageIndex);
  if (((page.getRotation().angle % 360) + 360) % 360 !== 0) return null;
  const resources = page.node.Resources();
  const xobjects = resources && resources.lookupMaybe(PDFName.of("XObject"), PDFDict);
  if (!xobjects || xobjects.keys().length !== 1) return null;
  const key = xobjects.keys()[0];
  const image = xobjects.lookup(key);
  if (!(image instanceof PDFRawStream)) return null;
  const dict = image.dict;
  const name = (k) => {
    const value = dict.lookup(PDFName.of(k));
    return value instanceof PDFName ? value.asString() : value === undefined ? undefined : null;
  };
  if (name("Subtype") !== "/Image") return null;
  let filter = dict.lookup(PDFName.of("Filter"));
  if (filter instanceof PDFArray && filter.size() === 1) filter = filter.lookup(0);
  if (!(filter instanceof PDFName) || filter.asString() !== "/DCTDecode") return null;
  for (const k of ["Decode", "DecodeParms", "SMask", "Mask", "ImageMask", "SMaskInData"]) if (dict.has(PDFName.of(k))) return null;
  const space = name("ColorSpace");
  const components = space === "/DeviceGray" ? 1 : space === "/DeviceRGB" ? 3 : 0;
  if (!components) return null;
  const number = (k) => {
    const value = dict.lookup(PDFName.of(k));
    return value instanceof PDFNumber ? value.asNumber() : NaN;
  };
  const width = number("Width");
  const height = number("Height");
  if (number("BitsPerComponent") !== 8) return null;
  // The content: its streams joined, only q/Q/cm and one Do of this image.
  const contents = page.node.Contents();
  if (!contents) return null;
  const streams = contents instanceof PDFArray ? contents.asArray().map((ref) => doc.context.lookup(ref)) : [contents];
  let text = "";
  for (const stream of streams) {
    if (!(stream instanceof PDFRawStream)) return null;
    text += Buffer.from(decodePDFRawStream(stream).decode()).toString("latin1") + "\n";
    if (text.length > 4096) return null;
  }
  const draw = soleImageDraw(text);
  if (!draw || draw.name !== key.asString()) return null;
  const [a, b, c, d, e, f] = draw.ctm;
  if (b !== 0 || c !== 0 || a <= 0 || d <= 0) return null;
  const box = page.getCropBox();
  const tolerance = 0.005 * Math.max(box.width, box.height) + 1;
  if (Math.abs(e - box.x) > tolerance || Math.abs(f - box.y) > tolerance || Math.abs(a - box.width) > tolerance || Math.abs(d - box.height) > tolerance) return null;
  if (!(width > 0 && height > 0) || Math.abs(width / height / (a / d) - 1) > 0.01) return null;
  if (width * height > workerData.maxImagePixels) {
    throw new Refusal("too_large", "Page " + (pageIndex + 1) + " is an image of " + Math.round((width * height) / 1e6) + " million pixels");
  }
  const bytes = image.contents;
  const frame = jpegFrame(bytes);
  if (!frame || frame.width !== width || frame.height !== height || frame.components !== components) return null;
  return { bytes: Uint8Array.from(bytes), width, height };
}

// ---- rendering, for every other page ----

let renderer;
async function getRenderer() {
  if (!renderer) {
    let createCanvas, pdfjs;
    try {
      ({ createCanvas } = require(resolveFrom("@napi-rs/canvas")));
      pdfjs = await import(pathToFileURL(resolveFrom("pdfjs-dist/legacy/build/pdf.mjs")).href);
    } catch (error) {
      throw new Refusal("unavailable", String((error && error.message) || error));
    }
    const doc = await pdfjs.getDocument({
      data: Uint8Array.from(workerData.bytes),
      isEvalSupported: false,
      disableFontFace: true,
      useSystemFonts: false,
      maxImageSize: workerData.maxImagePixels,
      verbosity: 0,
    }).promise;
    renderer = { createCanvas, doc };
  }
  return renderer;
}

async function renderPage(number) {
  const { createCanvas, doc } = await getRenderer();
  const page = await doc.getPage(number);
  const unit = page.getViewport({ scale: 1 });
  const viewport = page.getViewport({ scale: workerData.longEdge / Math.max(unit.width, unit.height) });
  const canvas = createCanvas(Math.max(1, Math.round(viewport.width)), Math.max(1, Math.round(viewport.height)));
  const context = canvas.getContext("2d");
  context.fillStyle = "#ffffff";
  context.fillRect(0, 0, canvas.width, canvas.height);
  await page.render({ canvasContext: context, viewport, canvas }).promise;
  // The encoder runs off this thread (a native async task) while the code is looked for in the pixels.
  const encoding = canvas.encode("jpeg", workerData.quality);
  let code;
  try {
    code = workerData.codeCorner ? findCode(context, canvas.width, canvas.height) : undefined;
  } finally {
    await encoding.catch(() => {});
  }
  const jpeg = await encoding;
  page.cleanup();
  // A copy: the encoder's buffer may be shared, and the page's buffer is transferred.
  return { bytes: Uint8Array.from(jpeg), width: canvas.width, height: canvas.height, code };
}

let jsQR;
/**
 * The first QR code in each corner of the drawn page, then in the whole page (the order and corner
 * size the code reader uses), from the canvas's own pixels: no JPEG to decode again on the main
 * thread. Its text and symbol corners, or null when there is none.
 */
function findCode(context, w, h) {
  jsQR ??= require(resolveFrom("jsqr"));
  const cw = Math.round(w * workerData.codeCorner.width);
  const ch = Math.round(h * workerData.codeCorner.height);
  const regions = [
    { x: w - cw, y: h - ch, w: cw, h: ch },
    { x: 0, y: 0, w: cw, h: ch },
    { x: w - cw, y: 0, w: cw, h: ch },
    { x: 0, y: h - ch, w: cw, h: ch },
    { x: 0, y: 0, w, h },
  ];
  for (const r of regions) {
    const found = jsQR(context.getImageData(r.x, r.y, r.w, r.h).data, r.w, r.h, { inversionAttempts: "dontInvert" });
    if (found) return { text: found.data, topLeft: found.location.topLeftCorner, topRight: found.location.topRightCorner };
  }
  return null;
}

function fail(error) {
  parentPort.postMessage({ type: "error", reason: error instanceof Refusal ? error.reason : "unreadable", message: String((error && error.message) || error) });
}

(async () => {
  let lib, doc;
  try {
    lib = require(resolveFrom("pdf-lib"));
    doc = await lib.PDFDocument.load(workerData.bytes, { updateMetadata: false });
  } catch (error) {
    return fail(error);
  }
  parentPort.postMessage({ type: "ready", pageCount: doc.getPageCount() });
  let chain = Promise.resolve();
  parentPort.on("message", (message) => {
    chain = chain.then(async () => {
      try {
        let embedded = null;
        try {
          embedded = embeddedJpeg(lib, doc, message.page - 1);
        } catch (error) {
          if (error instanceof Refusal) throw error;
          embedded = null;
        }
        const out = embedded ? { ...embedded, source: "embedded" } : { ...(await renderPage(message.page)), source: "rendered" };
        parentPort.postMessage({ type: "page", page: message.page, ...out }, [out.bytes.buffer]);
      } catch (error) {
        fail(error);
      }
    });
  });
})();
`;
