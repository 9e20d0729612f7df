import type { DocumentField } from "@/db/schema";

/** Where a field sits and what it asks for: the same for a package's and a template's fields. */
const placement = (f: DocumentField) => ({
  type: f.type,
  page: f.page,
  x: f.x,
  y: f.y,
  width: f.width,
  height: f.height,
  required: f.required,
  label: f.label,
});

/**
 * A field as `/v1` and the pages show it, per owner: a package document's field names its signer
 * and carries the value filled in; a template document's field names the role it is placed for.
 */
export const serializeField = {
  package: (f: DocumentField) => ({
    id: f.id,
    documentId: f.documentId!,
    signerId: f.signerId!,
    ...placement(f),
    value: f.value,
    filledAt: f.filledAt?.toISOString() ?? null,
  }),
  template: (f: DocumentField) => ({
    id: f.id,
    documentId: f.templateDocumentId!,
    roleKey: f.templateRoleKey!,
    ...placement(f),
  }),
};

export type SerializedPackageField = ReturnType<typeof serializeField.package>;
export type SerializedTemplateField = ReturnType<typeof serializeField.template>;
