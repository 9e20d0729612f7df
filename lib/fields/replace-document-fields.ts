import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { documentFields, packageSigners } from "@/db/schema";
import { recordAuditEntry } from "@/lib/audit/record-audit-entry";
import { requireCapability, type Principal } from "@/lib/auth/principal";
import { BadRequest } from "@/lib/errors";
import { assertDraft } from "@/lib/signings/assert-draft";
import { getSigningOrThrow } from "@/lib/signings/get-signing-or-throw";
import { assertFieldsFitDocument } from "./assert-fields-fit-document";
import { FIELD_ORDER } from "./field-order";
import { placementColumns, type FieldPlacement } from "./field-placement";
import { getDocumentOrThrow } from "@/lib/signings/get-document-or-throw";

export type PackageFieldInput = FieldPlacement & { signerId: string };

/**
 * Replaces every field of one document of a draft package with `fields` (an empty list removes
 * them all). Each field belongs to a signer of the package and lies inside a page of the document.
 * Once the package is sent its fields are frozen, like its documents and signers. Returns the
 * stored rows in reading order.
 */
export async function replaceDocumentFields(
  db: Db,
  options: { principal: Principal; packageId: string; documentId: string; fields: PackageFieldInput[]; ipAddress?: string | null },
) {
  requireCapability(options.principal, "signings:write", "You do not have permission to change signing packages.");
  return db.transaction(async (tx) => {
    const signing = await getSigningOrThrow(tx, { ...options, capability: "signings:write", lock: true });
    const document = await getDocumentOrThrow(tx, { packageId: signing.id, documentId: options.documentId }, (t) => ({ id: t.id, pageCount: t.pageCount, sha256: t.sha256, content: t.content }));
    assertDraft(signing, "change its fields");

    const signerIds = new Set(
      (await tx.select({ id: packageSigners.id }).from(packageSigners).where(eq(packageSigners.packageId, signing.id))).map((s) => s.id),
    );
    for (const [i, field] of options.fields.entries()) {
      if (!signerIds.has(field.signerId)) throw BadRequest(`fields[${i}].signerId: ${field.signerId.slice(0, 64)} is not a signer of this package.`);
    }
    await assertFieldsFitDocument(document, options.fields);

    const before = await tx.select({ id: documentFields.id }).from(documentFields).where(eq(documentFields.documentId, document.id));
    await tx.delete(documentFields).where(eq(documentFields.documentId, document.id));
    if (options.fields.length > 0) {
      await tx.insert(documentFields).values(
        options.fields.map((f) => ({
          packageId: signing.id,
          documentId: document.id,
          signerId: f.signerId,
          ...placementColumns(f),
        })),
      );
    }
    const rows = await tx.select().from(documentFields).where(eq(documentFields.documentId, document.id)).orderBy(...FIELD_ORDER);
    await recordAuditEntry(tx, {
      organizationId: signing.organizationId,
      packageId: signing.id,
      actorUserId: options.principal.user.id,
      action: "document.fields_replaced",
      entityType: "package_document",
      entityId: document.id,
      ipAddress: options.ipAddress,
      before: { fieldCount: before.length },
      after: { fieldCount: rows.length, fields: rows.map((f) => ({ id: f.id, signerId: f.signerId, type: f.type, page: f.page, required: f.required })) },
    });
    return rows;
  });
}
