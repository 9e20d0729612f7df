import type { Db } from "@/db/client";
import { chattelDocuments, type ChattelDocument, type NewChattelDocument } from "@/db/schema";
import { recordAuditEntry } from "@/lib/audit/record-audit-entry";
import { requireCapability, type Principal } from "@/lib/auth/principal";
import { assertPackageInOrganization } from "./assert-package-in-organization";
import { resolveDocumentPlacement } from "./resolve-document-placement";
import { serializeChattelDocument } from "./serialize-chattel-document";

export type ChattelDocumentFields = Omit<
  NewChattelDocument,
  "id" | "organizationId" | "companyId" | "locationId" | "createdByUserId" | "createdAt" | "updatedAt"
>;

export type CreateChattelDocumentOptions = {
  principal: Principal;
  organizationId?: number;
  companyId?: number;
  locationId?: number;
  fields: ChattelDocumentFields;
  ipAddress?: string | null;
};

/** Creates a chattel document at a place the caller manages, with its audit entry. */
export async function createChattelDocument(db: Db, options: CreateChattelDocumentOptions): Promise<ChattelDocument> {
  const { principal } = options;
  requireCapability(principal, "documents:write", "You do not have permission to create documents.");
  return db.transaction(async (tx) => {
    const placement = await resolveDocumentPlacement(tx, { ...options, capability: "documents:write" });
    if (options.fields.signingPackageId) {
      await assertPackageInOrganization(tx, { signingPackageId: options.fields.signingPackageId, organizationId: placement.organizationId });
    }
    const [created] = await tx
      .insert(chattelDocuments)
      .values({ ...options.fields, ...placement, createdByUserId: principal.user.id })
      .returning();
    await recordAuditEntry(tx, {
      organizationId: placement.organizationId,
      actorUserId: principal.user.id,
      action: "document.created",
      entityType: "chattel_document",
      entityId: created!.id,
      ipAddress: options.ipAddress,
      after: serializeChattelDocument(created!),
    });
    return created!;
  });
}
