import { PDFDocument } from "pdf-lib";
import type { PageBox } from "./field-placement";

const CACHE_SIZE = 64;
// A document's bytes never change under the same SHA-256, so its page boxes are cached by it.
const cache = new Map<string, PageBox[]>();

/**
 * The size of each page's CropBox in points (unrotated user space): the box field coordinates are
 * measured in. The bytes were validated (size, inflation, parse time) when they were uploaded.
 */
export async function getPageBoxes(document: { sha256: string; content: Uint8Array }): Promise<PageBox[]> {
  const known = cache.get(document.sha256);
  if (known) return known;
  const pdf = await PDFDocument.load(document.content, { updateMetadata: false, ignoreEncryption: true });
  const boxes = pdf.getPages().map((page) => {
    const crop = page.getCropBox();
    return { width: crop.width, height: crop.height };
  });
  if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value!);
  cache.set(document.sha256, boxes);
  return boxes;
}
