import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { documentFields } from "@/db/schema";
import { recordAuditEntry } from "@/lib/audit/record-audit-entry";
import { requireCapability, type Principal } from "@/lib/auth/principal";
import { BadRequest } from "@/lib/errors";
import { getTemplateOrThrow } from "@/lib/templates/get-template-or-throw";
import { assertFieldsFitDocument } from "./assert-fields-fit-document";
import { FIELD_ORDER } from "./field-order";
import { placementColumns, type FieldPlacement } from "./field-placement";
import { getDocumentOrThrow } from "@/lib/signings/get-document-or-throw";

export type TemplateFieldInput = FieldPlacement & { roleKey: string };

/**
 * Replaces every field of one template document with `fields`, each placed for one of the
 * template's roles. Packages created from the template get a copy (`copyTemplateFields`). Returns the stored rows in reading order.
 */
export async function replaceTemplateDocumentFields(
  db: Db,
  options: { principal: Principal; templateId: string; documentId: string; fields: TemplateFieldInput[]; ipAddress?: string | null },
) {
  requireCapability(options.principal, "templates:write", "You do not have permission to change templates.");
  return db.transaction(async (tx) => {
    const template = await getTemplateOrThrow(tx, {
      ...options,
      capability: "templates:write",
      forbiddenMessage: "Changing a template needs an organization-level role.",
      lock: true,
    });
    const document = await getDocumentOrThrow(tx, { templateId: template.id, documentId: options.documentId }, (t) => ({ id: t.id, pageCount: t.pageCount, sha256: t.sha256, content: t.content }));

    const roleKeys = new Set(template.roles.map((r) => r.key));
    for (const [i, field] of options.fields.entries()) {
      if (!roleKeys.has(field.roleKey)) {
        throw BadRequest(
          `fields[${i}].roleKey: the template has no role "${field.roleKey.slice(0, 64)}"${roleKeys.size > 0 ? ` (roles: ${[...roleKeys].join(", ")})` : "; add roles to the template first"}.`,
        );
      }
    }
    await assertFieldsFitDocument(document, options.fields);

    await tx.delete(documentFields).where(eq(documentFields.templateDocumentId, document.id));
    if (options.fields.length > 0) {
      await tx.insert(documentFields).values(
        options.fields.map((f) => ({
          templateId: template.id,
          templateDocumentId: document.id,
          templateRoleKey: f.roleKey,
          ...placementColumns(f),
        })),
      );
    }
    const rows = await tx.select().from(documentFields).where(eq(documentFields.templateDocumentId, document.id)).orderBy(...FIELD_ORDER);
    await recordAuditEntry(tx, {
      organizationId: template.organizationId,
      actorUserId: options.principal.user.id,
      action: "template.fields_replaced",
      entityType: "template_document",
      entityId: document.id,
      ipAddress: options.ipAddress,
      after: { fieldCount: rows.length },
    });
    return rows;
  });
}
