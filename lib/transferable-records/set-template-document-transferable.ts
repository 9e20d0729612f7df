import type { Db } from "@/db/client";
import { requireCapability, type Principal } from "@/lib/auth/principal";
import { getDocumentOrThrow } from "@/lib/packages/get-document-or-throw";
import { setDocumentFlag } from "@/lib/packages/set-document-flag";
import { getTemplateOrThrow } from "@/lib/templates/get-template-or-throw";

/**
 * Marks a template's document as a transferable record (or not): every package created from the
 * template afterwards, by the package form, `/v1` or a bulk CSV send, starts with its copy marked.
 */
export async function setTemplateDocumentTransferable(
  db: Db,
  options: { principal: Principal; templateId: string; documentId: string; transferable: boolean; ipAddress?: string | null },
): Promise<{ documentId: string; transferable: boolean }> {
  requireCapability(options.principal, "templates:write", "You do not have permission to change templates.");
  return db.transaction(async (tx) => {
    const template = await getTemplateOrThrow(tx, {
      ...options,
      capability: "templates:write",
      forbiddenMessage: "Changing a template needs an organization-level role.",
      lock: true,
    });
    const document = await getDocumentOrThrow(tx, { templateId: template.id, documentId: options.documentId }, (t) => ({ id: t.id, transferable: t.transferable }));
    await setDocumentFlag(tx, { template, document, flag: "transferable", value: options.transferable, actorUserId: options.principal.user.id, ipAddress: options.ipAddress });
    return { documentId: document.id, transferable: options.transferable };
  });
}
