import { BadRequest } from "@/lib/errors";
import type { FieldPlacement } from "./field-placement";
import { getPageBoxes } from "./get-page-boxes";

/** Rounding slack when a field touches the page edge, in points. */
const EDGE_TOLERANCE = 0.01;

/**
 * 400 unless every field lies on a page of the document and inside that page's box. Messages name
 * the field by its index in the request (`fields[3].page: …`).
 */
export async function assertFieldsFitDocument(
  document: { pageCount: number; sha256: string; content: Uint8Array },
  fields: readonly FieldPlacement[],
): Promise<void> {
  if (fields.length === 0) return;
  for (const [i, field] of fields.entries()) {
    if (field.page > document.pageCount) {
      throw BadRequest(`fields[${i}].page: the document has ${document.pageCount} ${document.pageCount === 1 ? "page" : "pages"}.`);
    }
  }
  const boxes = await getPageBoxes(document);
  for (const [i, field] of fields.entries()) {
    const box = boxes[field.page - 1];
    if (!box) throw BadRequest(`fields[${i}].page: the document has ${boxes.length} pages.`);
    if (field.x + field.width > box.width + EDGE_TOLERANCE || field.y + field.height > box.height + EDGE_TOLERANCE) {
      throw BadRequest(
        `fields[${i}]: the field must lie inside page ${field.page} (${round(box.width)} × ${round(box.height)} points); it ends at x ${round(field.x + field.width)}, y ${round(field.y + field.height)}.`,
      );
    }
  }
}

function round(n: number): number {
  return Math.round(n * 100) / 100;
}
