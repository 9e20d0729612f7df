/**
 * The PDF inspection worker, as source text run with `new Worker(source, { eval: true })`. A string
 * survives every bundler this code goes through (Turbopack for `next start`, esbuild for the
 * standalone core-api) without a worker file to locate; `pdf-lib` is required at run time from the
 * directories the main thread names (the process's working directory first).
 *
 * Protocol: `{ id, bytes, loadDocument, limits }` in; `{ id, ok: true, pageCount, inflatedBytes }` or
 * `{ id, ok: false, reason, message }` out, where reason is `inflate_limit`, `encrypted` (an /Encrypt dictionary: the file is password-protected) or `unreadable`.
 *
 * Before pdf-lib sees the file, every stream is decoded and counted without being kept (FlateDecode
 * through zlib's streaming inflater; LZW, RunLength, ASCII85 and ASCIIHex through pdf-lib's own
 * decoders), so a file whose streams expand past `limits.totalBytes` — or whose object and
 * cross-reference streams, which pdf-lib inflates into memory on load, expand past
 * `limits.structureBytes` — is refused having used a bounded amount of memory and CPU.
 */
export const PDF_WORKER_SOURCE = String.raw`
"use strict";
const { parentPort, workerData } = require("node:worker_threads");
const { createRequire } = require("node:module");
const path = require("node:path");
const zlib = require("node:zlib");

function load(name) {
  let lastError;
  for (const dir of workerData.searchFrom) {
    try {
      return createRequire(path.join(dir, "noop.js"))(name);
    } catch (error) {
      lastError = error;
    }
  }
  throw lastError;
}
const pdfLibMain = load("pdf-lib");
const pdfLibDir = path.dirname(createRequire(path.join(workerData.searchFrom[0], "noop.js")).resolve("pdf-lib"));
const internal = (name) => require(path.join(pdfLibDir, "core", "streams", name)).default;

class InflateLimit extends Error {}
class Encrypted extends Error {}

const FILTERS = { Fl: "FlateDecode", LZW: "LZWDecode", RL: "RunLengthDecode", A85: "ASCII85Decode", AHx: "ASCIIHexDecode" };
const CHUNK = 64 * 1024;

function filtersOf(dict) {
  const match = /\/Filter\s*(\[[^\]]*\]|\/[A-Za-z0-9]+)/.exec(dict);
  if (!match) return [];
  return [...match[1].matchAll(/\/([A-Za-z0-9]+)/g)].map((m) => FILTERS[m[1]] || m[1]);
}

/** Counts what a Flate stream inflates to, keeping nothing; rejects as soon as it passes the budget. */
function countInflate(data, budget) {
  return new Promise((resolve, reject) => {
    let total = 0;
    const inflater = zlib.createInflate({ finishFlush: zlib.constants.Z_SYNC_FLUSH, chunkSize: CHUNK });
    inflater.on("data", (chunk) => {
      total += chunk.length;
      if (total > budget) {
        inflater.destroy();
        reject(new InflateLimit());
      }
    });
    // A corrupt or truncated stream counts what it produced before the damage.
    inflater.on("error", () => resolve(total));
    inflater.on("end", () => resolve(total));
    inflater.end(data);
  });
}

/** Decodes one non-final filter stage into memory, bounded by the budget. */
async function decodeStage(filter, data, budget) {
  if (filter === "FlateDecode") {
    try {
      return zlib.inflateSync(data, { finishFlush: zlib.constants.Z_SYNC_FLUSH, maxOutputLength: budget + 1 });
    } catch (error) {
      if (error && error.code === "ERR_BUFFER_TOO_LARGE") throw new InflateLimit();
      return new Uint8Array(0);
    }
  }
  const Stream = internal("Stream");
  const source = new Stream(data);
  let decoder;
  if (filter === "LZWDecode") decoder = new (internal("LZWStream"))(source, undefined, 1);
  else if (filter === "RunLengthDecode") decoder = new (internal("RunLengthStream"))(source);
  else if (filter === "ASCII85Decode") decoder = new (internal("Ascii85Stream"))(source);
  else if (filter === "ASCIIHexDecode") decoder = new (internal("AsciiHexStream"))(source);
  else return null; // image codecs (DCT, JPX, JBIG2, CCITT) are not decoded here, nor by pdf-lib
  let total = 0;
  for (;;) {
    let chunk;
    try {
      chunk = decoder.getBytes(CHUNK);
    } catch {
      break;
    }
    if (!chunk || chunk.length === 0) break;
    total += chunk.length;
    if (total > budget) throw new InflateLimit();
  }
  decoder.reset && decoder.reset();
  return decoder.buffer ? decoder.buffer.subarray(0, decoder.bufferLength) : new Uint8Array(0);
}

async function decodedSize(filters, data, budget) {
  let current = data;
  for (let i = 0; i < filters.length; i++) {
    const last = i === filters.length - 1;
    if (last && filters[i] === "FlateDecode") return countInflate(current, budget);
    const next = await decodeStage(filters[i], current, budget);
    if (next === null) return current.length;
    current = next;
  }
  return current.length;
}

async function measureStreams(bytes, limits) {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("latin1");
  const keyword = /stream(\r\n|\n|\r)/g;
  let total = 0;
  let structure = 0;
  let match;
  while ((match = keyword.exec(text))) {
    if (text.slice(Math.max(0, match.index - 3), match.index) === "end") continue;
    const dictStart = Math.max(text.lastIndexOf("obj", match.index), 0);
    const dict = text.slice(dictStart, match.index);
    if (!dict.includes("<<")) continue;
    const start = match.index + match[0].length;
    // A direct /Length is what pdf-lib trusts, so it bounds the data here too; otherwise the first endstream.
    const length = /\/Length\s+(\d+)(?!\s+\d+\s+R)/.exec(dict);
    let end = length ? start + Number(length[1]) : text.indexOf("endstream", start);
    if (end < 0 || end > text.length) end = text.indexOf("endstream", start) < 0 ? text.length : text.indexOf("endstream", start);
    keyword.lastIndex = Math.max(end, start);
    const filters = filtersOf(dict);
    if (filters.length === 0) continue;
    const isStructure = /\/Type\s*\/(ObjStm|XRef)\b/.test(dict);
    const budget = Math.min(limits.totalBytes - total, isStructure ? limits.structureBytes - structure : Infinity);
    const size = await decodedSize(filters, bytes.subarray(start, end), budget);
    total += size;
    if (isStructure) structure += size;
  }
  return total;
}

parentPort.on("message", async ({ id, bytes, loadDocument, limits }) => {
  try {
    const inflatedBytes = await measureStreams(bytes, limits);
    let pageCount = null;
    if (loadDocument) {
      const pdf = await pdfLibMain.PDFDocument.load(bytes, { updateMetadata: false, ignoreEncryption: true });
      if (pdf.isEncrypted) throw new Encrypted();
      pageCount = pdf.getPageCount();
    }
    parentPort.postMessage({ id, ok: true, pageCount, inflatedBytes });
  } catch (error) {
    const reason = error instanceof InflateLimit ? "inflate_limit" : error instanceof Encrypted ? "encrypted" : "unreadable";
    parentPort.postMessage({ id, ok: false, reason, message: error instanceof Error ? error.message : String(error) });
  }
});
`;
