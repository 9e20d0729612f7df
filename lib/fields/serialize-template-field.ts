import type { DocumentField } from "@/db/schema";

/** A template document's field, placed for one of the template's roles. */
export function serializeTemplateField(f: DocumentField) {
  return {
    id: f.id,
    documentId: f.templateDocumentId!,
    roleKey: f.templateRoleKey!,
    type: f.type,
    page: f.page,
    x: f.x,
    y: f.y,
    width: f.width,
    height: f.height,
    required: f.required,
    label: f.label,
  };
}

export type SerializedTemplateField = ReturnType<typeof serializeTemplateField>;
