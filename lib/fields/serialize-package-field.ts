import type { DocumentField } from "@/db/schema";

/** A package document's field as `/v1` and the pages show it. */
export function serializePackageField(f: DocumentField) {
  return {
    id: f.id,
    documentId: f.documentId!,
    signerId: f.signerId!,
    type: f.type,
    page: f.page,
    x: f.x,
    y: f.y,
    width: f.width,
    height: f.height,
    required: f.required,
    label: f.label,
    value: f.value,
    filledAt: f.filledAt?.toISOString() ?? null,
  };
}

export type SerializedPackageField = ReturnType<typeof serializePackageField>;
