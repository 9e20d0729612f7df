import type { FieldType } from "@/db/schema";

/** Where a field sits and what it is, in PDF user space of its page (see `db/schema/document-fields.ts`). */
export type FieldPlacement = {
  type: FieldType;
  page: number;
  x: number;
  y: number;
  width: number;
  height: number;
  required: boolean;
  label?: string | null;
};

/** The placement columns of a `document_fields` row, from an input or from another row (template → package). */
export function placementColumns(f: FieldPlacement): Required<FieldPlacement> {
  return { type: f.type, page: f.page, x: f.x, y: f.y, width: f.width, height: f.height, required: f.required, label: f.label || null };
}

/** A page's size in points (its CropBox, unrotated user space). */
export type PageBox = { width: number; height: number };
