import type { FieldType } from "@/db/schema";

/**
 * Whether a field counts as filled: text and initials need text, a checkbox must be ticked (a
 * required checkbox is an agreement). Signature, date and name fields are always filled by signing.
 */
export function isFieldFilled(field: { type: FieldType; value: string | null }): boolean {
  switch (field.type) {
    case "text":
    case "initials":
      return (field.value ?? "").trim().length > 0;
    case "checkbox":
      return field.value === "true";
    default:
      return true;
  }
}
