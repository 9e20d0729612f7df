/**
 * The field types a document can carry. A plain module without database imports, so browser code
 * can use it; `db/schema/document-fields.ts` builds the `field_type` enum from it.
 */
export const FIELD_TYPE_VALUES = ["signature", "initials", "date_signed", "full_name", "text", "checkbox"] as const;
export type FieldType = (typeof FIELD_TYPE_VALUES)[number];
