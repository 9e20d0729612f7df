import type { FieldType } from "@/db/values/field-type-values";

export type { FieldType };

/** The field types in palette order, with what a manager reads and the default size in points. */
export const FIELD_TYPES: { type: FieldType; label: string; width: number; height: number }[] = [
  { type: "signature", label: "Signature", width: 180, height: 40 },
  { type: "initials", label: "Initials", width: 60, height: 30 },
  { type: "date_signed", label: "Date signed", width: 100, height: 20 },
  { type: "full_name", label: "Full name", width: 160, height: 20 },
  { type: "text", label: "Text", width: 160, height: 20 },
  { type: "checkbox", label: "Checkbox", width: 16, height: 16 },
];

export function fieldTypeLabel(type: FieldType): string {
  return FIELD_TYPES.find((t) => t.type === type)?.label ?? type;
}
