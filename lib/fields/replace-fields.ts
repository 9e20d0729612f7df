import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { documentFields, packageSigners, type DocumentField, type NewDocumentField } from "@/db/schema";
import { recordAuditEntry, type AuditInput } from "@/lib/audit/record-audit-entry";
import type { Principal } from "@/lib/auth/principal";
import { getOwnedDocumentOrThrow, loadDocumentOwner, requireOwnerCapability, type LoadedOwner, type OwnedDocumentRef } from "@/lib/document-owners/document-owner";
import { BadRequest } from "@/lib/errors";
import { assertDraft } from "@/lib/packages/assert-draft";
import { assertFieldsFitDocument } from "./assert-fields-fit-document";
import { FIELD_ORDER } from "./field-order";
import { placementColumns, type FieldPlacement } from "./field-placement";
import { fieldsOfDocument } from "./fields-of-document";

/** A package field is placed for one of the package's signers. */
export type PackageFieldInput = FieldPlacement & { signerId: string };
/** A template field is placed for one of the template's roles (`roleKey`). */
export type TemplateFieldInput = FieldPlacement & { roleKey: string };

/** The document whose fields are replaced, with the new fields: signers' for a package, roles' for a template. */
export type FieldsToReplace = Omit<OwnedDocumentRef, "owner"> &
  ({ owner: "package"; fields: PackageFieldInput[] } | { owner: "template"; fields: TemplateFieldInput[] });

export type ReplaceFieldsOptions = FieldsToReplace & { principal: Principal; ipAddress?: string | null };

type Placed = {
  /** The rows to insert, each tied to the owner, the document and its signer or role. */
  values: NewDocumentField[];
  /** The audit entry of the replacement, from the field counts before and after. */
  audit: (before: number, rows: DocumentField[]) => AuditInput;
};

/**
 * Replaces every field of one document with `fields` (an empty list removes them all) and returns
 * the stored rows in reading order. Each field lies inside a page of the document and belongs to a
 * signer of the package or to a role of the template (400 otherwise). A package's fields change only
 * while it is a draft (409 once sent, like its documents and signers); changing a template needs an
 * organization-level role. Packages created from a template get a copy of its fields (`copyTemplateFields`).
 */
export async function replaceFields(db: Db, options: ReplaceFieldsOptions): Promise<DocumentField[]> {
  requireOwnerCapability(options.principal, options.owner, "write");
  return db.transaction(async (tx) => {
    const owner = await loadDocumentOwner(tx, { ...options, access: "write", lock: true });
    const document = await getOwnedDocumentOrThrow(tx, owner, options.documentId, { content: true });
    const placed =
      owner.owner === "package"
        ? await placePackageFields(tx, owner.row, document.id, options.fields as PackageFieldInput[], options)
        : placeTemplateFields(owner.row, document.id, options.fields as TemplateFieldInput[], options);
    await assertFieldsFitDocument(document, options.fields);

    const where = fieldsOfDocument(owner.owner, document.id);
    const before = await tx.select({ id: documentFields.id }).from(documentFields).where(where);
    await tx.delete(documentFields).where(where);
    if (placed.values.length > 0) await tx.insert(documentFields).values(placed.values);
    const rows = await tx.select().from(documentFields).where(where).orderBy(...FIELD_ORDER);
    await recordAuditEntry(tx, placed.audit(before.length, rows));
    return rows;
  });
}

type Actor = { principal: Principal; ipAddress?: string | null };

async function placePackageFields(
  tx: Db,
  signing: Extract<LoadedOwner, { owner: "package" }>["row"],
  documentId: string,
  fields: PackageFieldInput[],
  actor: Actor,
): Promise<Placed> {
  assertDraft(signing, "change its fields");
  const signerIds = new Set(
    (await tx.select({ id: packageSigners.id }).from(packageSigners).where(eq(packageSigners.packageId, signing.id))).map((s) => s.id),
  );
  for (const [i, field] of fields.entries()) {
    if (!signerIds.has(field.signerId)) throw BadRequest(`fields[${i}].signerId: ${field.signerId.slice(0, 64)} is not a signer of this package.`);
  }
  return {
    values: fields.map((f) => ({ packageId: signing.id, documentId, signerId: f.signerId, ...placementColumns(f) })),
    audit: (before, rows) => ({
      organizationId: signing.organizationId,
      packageId: signing.id,
      actorUserId: actor.principal.user.id,
      action: "document.fields_replaced",
      entityType: "package_document",
      entityId: documentId,
      ipAddress: actor.ipAddress,
      before: { fieldCount: before },
      after: { fieldCount: rows.length, fields: rows.map((f) => ({ id: f.id, signerId: f.signerId, type: f.type, page: f.page, required: f.required })) },
    }),
  };
}

function placeTemplateFields(
  template: Extract<LoadedOwner, { owner: "template" }>["row"],
  templateDocumentId: string,
  fields: TemplateFieldInput[],
  actor: Actor,
): Placed {
  const roleKeys = new Set(template.roles.map((r) => r.key));
  for (const [i, field] of fields.entries()) {
    if (!roleKeys.has(field.roleKey)) {
      throw BadRequest(
        `fields[${i}].roleKey: the template has no role "${field.roleKey.slice(0, 64)}"${roleKeys.size > 0 ? ` (roles: ${[...roleKeys].join(", ")})` : "; add roles to the template first"}.`,
      );
    }
  }
  return {
    values: fields.map((f) => ({ templateId: template.id, templateDocumentId, templateRoleKey: f.roleKey, ...placementColumns(f) })),
    audit: (_before, rows) => ({
      organizationId: template.organizationId,
      actorUserId: actor.principal.user.id,
      action: "template.fields_replaced",
      entityType: "template_document",
      entityId: templateDocumentId,
      ipAddress: actor.ipAddress,
      after: { fieldCount: rows.length },
    }),
  };
}
