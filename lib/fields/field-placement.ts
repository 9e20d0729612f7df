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

/** A page's size in points (its CropBox, unrotated user space). */
export type PageBox = { width: number; height: number };
