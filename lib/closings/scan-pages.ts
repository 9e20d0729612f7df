import sharp from "sharp";
import { validatePdfUpload, MAX_PDF_BYTES } from "@/lib/pdf/validate-pdf-upload";
import { AppError, BadRequest } from "@/lib/errors";
import { rasterizePdf } from "./rasterize-pdf";
import { CODE_CORNER, type FoundCode } from "./read-page-code";

/** One uploaded scan file: a PDF, or one page as a JPEG or PNG image. */
export type ScanUpload = { name: string; bytes: Uint8Array };

/** One page cut out of the uploads, as an image, with where it came from. */
export type ScanPage = {
  sourceName: string;
  sourcePage: number;
  bytes: Uint8Array;
  contentType: "image/png" | "image/jpeg";
  /** A rendered PDF page: the QR code its renderer found in its pixels (null: none); for `readPageCode`. */
  code?: FoundCode | null;
};

/** Caps of one scanback upload: the files together stay under the document upload cap. */
export const MAX_SCAN_UPLOAD_BYTES = MAX_PDF_BYTES;
export const MAX_SCAN_FILES = 100;
export const MAX_SCAN_PAGES = 200;
/** Uploaded images are brought down to at most this long edge (300 dpi on letter). */
const MAX_LONG_EDGE = 3300;
/**
 * PDF pages that must be rendered get this long edge: 150 dpi on letter, whatever their size. It is
 * the resolution the code reader works at (`readPageCode` brings every page to it), so a rendered
 * page needs no second shrinking, and it is legible for the closing team: such a page is drawn from
 * the PDF's own text and lines (a file printed to PDF, not a photo), sharp at 150 dpi, the
 * resolution a scanner's "document" setting writes. Rendering at 200 dpi cost 1.8× the pixels for no
 * better reading (docs/performance.md). A scanner's own JPEG keeps its resolution.
 */
export const RENDER_LONG_EDGE = 1650;
/** An image larger than this many pixels is refused before it is decoded. */
const MAX_INPUT_PIXELS = 60_000_000;

function kindOf(bytes: Uint8Array): "pdf" | "png" | "jpeg" | null {
  const head = Buffer.from(bytes.subarray(0, 8));
  if (head.subarray(0, 5).toString("latin1") === "%PDF-") return "pdf";
  if (head.equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return "png";
  if (head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return "jpeg";
  return null;
}

/** A page that takes longer than this to render cancels its file: a hostile PDF cannot hold the renderer. */
const PAGE_BUDGET_MS = 20_000;

async function rasterizeScanPdf(file: ScanUpload, pages: number | readonly number[], owner: string | undefined): Promise<ScanPage[]> {
  const rendered = await rasterizePdf(file.name, file.bytes, pages, { longEdge: RENDER_LONG_EDGE, quality: 85, pageBudgetMs: PAGE_BUDGET_MS, owner, codeCorner: CODE_CORNER });
  const out: ScanPage[] = [];
  for (const { page, bytes, width, height, code } of rendered) {
    // A scanner's own JPEG above 300 dpi on letter is brought down, as an uploaded image is.
    const shrunk =
      Math.max(width, height) <= MAX_LONG_EDGE
        ? bytes
        : new Uint8Array(
            await sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS, failOn: "none" })
              .resize({ width: MAX_LONG_EDGE, height: MAX_LONG_EDGE, fit: "inside", withoutEnlargement: true })
              .jpeg({ quality: 85 })
              .toBuffer(),
          );
    out.push({ sourceName: file.name, sourcePage: page, bytes: shrunk, contentType: "image/jpeg", ...(code !== undefined ? { code } : {}) });
  }
  return out;
}

/**
 * An uploaded image as a stored page: EXIF orientation applied, brought down to 300 dpi on letter
 * when larger, kept in its own format. A file that is not a decodable image is 400.
 */
async function normalizeImage(file: ScanUpload, kind: "png" | "jpeg"): Promise<ScanPage> {
  try {
    const image = sharp(file.bytes, { limitInputPixels: MAX_INPUT_PIXELS, failOn: "error" }).rotate();
    const meta = await sharp(file.bytes, { limitInputPixels: MAX_INPUT_PIXELS }).metadata();
    const long = Math.max(meta.width ?? 0, meta.height ?? 0);
    if (long === 0) throw new Error("no size");
    if (long <= MAX_LONG_EDGE && (meta.orientation ?? 1) === 1) {
      return { sourceName: file.name, sourcePage: 1, bytes: file.bytes, contentType: kind === "png" ? "image/png" : "image/jpeg" };
    }
    const resized = image.resize({ width: MAX_LONG_EDGE, height: MAX_LONG_EDGE, fit: "inside", withoutEnlargement: true });
    const bytes = kind === "png" ? await resized.png().toBuffer() : await resized.jpeg({ quality: 85 }).toBuffer();
    return { sourceName: file.name, sourcePage: 1, bytes: new Uint8Array(bytes), contentType: kind === "png" ? "image/png" : "image/jpeg" };
  } catch (error) {
    if (error instanceof Error && /pixel limit/i.test(error.message)) {
      throw new AppError("payload_too_large", `"${file.name}" has more than ${MAX_INPUT_PIXELS / 1_000_000} million pixels; scan at 300 dpi or less.`);
    }
    throw BadRequest(`"${file.name}" is not a readable JPEG or PNG image.`);
  }
}

/** One file of a scan, checked: what it is and how many pages it has. */
export type CheckedScanFile = ScanUpload & { kind: "pdf" | "png" | "jpeg"; pageCount: number };

/**
 * Checks a scanback upload (PDFs and JPEG/PNG images, in any order) without cutting it: 413 over the
 * size or page caps, 400 for a file that is not a PDF, JPEG or PNG, or is empty or damaged. PDFs are
 * checked like every PDF upload (in a worker) and counted; an image is one page. Cheap enough for the
 * request that takes the upload; cutting and reading the pages is `scanFilePages`, chunk by chunk.
 */
export async function checkScanUploads(files: readonly ScanUpload[]): Promise<CheckedScanFile[]> {
  if (files.length === 0) throw BadRequest("Upload at least one scanned file (PDF, JPEG or PNG).");
  if (files.length > MAX_SCAN_FILES) throw new AppError("payload_too_large", `Upload at most ${MAX_SCAN_FILES} files at once.`);
  const total = files.reduce((sum, f) => sum + f.bytes.byteLength, 0);
  if (total > MAX_SCAN_UPLOAD_BYTES) {
    throw new AppError("payload_too_large", `The scans are ${total} bytes together; the limit of one upload is ${MAX_SCAN_UPLOAD_BYTES / 1024 / 1024} MiB (${MAX_SCAN_UPLOAD_BYTES} bytes): upload them in several parts.`);
  }
  const checked: CheckedScanFile[] = [];
  let pages = 0;
  for (const raw of files) {
    const file = { name: raw.name.trim().slice(0, 200) || "scan", bytes: raw.bytes };
    if (file.bytes.byteLength === 0) throw BadRequest(`"${file.name}" is empty.`);
    const kind = kindOf(file.bytes);
    if (!kind) throw BadRequest(`"${file.name}" is not a PDF, JPEG or PNG file.`);
    const pageCount = kind === "pdf" ? (await validatePdfUpload(file)).pageCount : 1;
    if (pages + pageCount > MAX_SCAN_PAGES) throw new AppError("payload_too_large", `Upload at most ${MAX_SCAN_PAGES} pages at once.`);
    pages += pageCount;
    checked.push({ ...file, kind, pageCount });
  }
  return checked;
}

/**
 * Some pages of one checked scan file as page images (1-based page numbers, in that order). A PDF is
 * cut inside Node (`rasterizePdf`, in a worker thread): a page that is one full-page JPEG, as
 * scanners write them, is kept as it is; any other page is rendered at 150 dpi (pdfjs-dist on
 * @napi-rs/canvas). Each page is held to a time and memory budget and waits its turn in a queue fair
 * across `owner`s (organizations). An image file is its own page 1.
 */
export async function scanFilePages(file: Pick<CheckedScanFile, "name" | "bytes" | "kind">, pages: readonly number[], options: { owner?: string } = {}): Promise<ScanPage[]> {
  if (pages.length === 0) return [];
  if (file.kind === "pdf") return rasterizeScanPdf(file, pages, options.owner);
  return pages.includes(1) ? [await normalizeImage(file, file.kind)] : [];
}

/** A whole scanback upload as page images, file by file and page by page: `checkScanUploads`, then `scanFilePages` for every page. */
export async function splitScanUploads(files: readonly ScanUpload[], options: { owner?: string } = {}): Promise<ScanPage[]> {
  const pages: ScanPage[] = [];
  for (const file of await checkScanUploads(files)) {
    pages.push(...(await scanFilePages(file, Array.from({ length: file.pageCount }, (_, i) => i + 1), options)));
  }
  return pages;
}

/** A page image turned clockwise by `rotation` degrees (stored upright once its code said how). */
export async function turnPage(page: ScanPage, rotation: 0 | 90 | 180 | 270): Promise<ScanPage> {
  if (rotation === 0) return page;
  const turned = sharp(page.bytes, { limitInputPixels: MAX_INPUT_PIXELS }).rotate(rotation);
  const bytes = page.contentType === "image/png" ? await turned.png().toBuffer() : await turned.jpeg({ quality: 85 }).toBuffer();
  return { ...page, bytes: new Uint8Array(bytes) };
}
