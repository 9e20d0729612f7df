import type { DocumentField } from "@/db/schema";
import { placementColumns } from "./field-placement";

/**
 * A field as `/v1` and the pages show it, per owner: a package document's field names its signer
 * and carries the value filled in; a template document's field names the role it is placed for.
 */
export const serializeField = {
  package: (f: DocumentField) => ({
    id: f.id,
    documentId: f.documentId!,
    signerId: f.signerId!,
    // Where the field sits and what it asks for: the same for a package's and a template's fields.
    ...placementColumns(f),
    value: f.value,
    filledAt: f.filledAt?.toISOString() ?? null,
  }),
  template: (f: DocumentField) => ({
    id: f.id,
    documentId: f.templateDocumentId!,
    roleKey: f.templateRoleKey!,
    ...placementColumns(f),
  }),
};

export type SerializedPackageField = ReturnType<typeof serializeField.package>;
export type SerializedTemplateField = ReturnType<typeof serializeField.template>;
