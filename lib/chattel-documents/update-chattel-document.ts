import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { chattelDocuments, type ChattelDocument } from "@/db/schema";
import { recordAuditEntry } from "@/lib/audit/record-audit-entry";
import { requireCapability, type Principal } from "@/lib/auth/principal";
import { assertPackageInOrganization } from "./assert-package-in-organization";
import type { ChattelDocumentFields } from "./create-chattel-document";
import { getChattelDocumentOrThrow } from "./get-chattel-document-or-throw";
import { resolveDocumentPlacement } from "./resolve-document-placement";
import { serializeChattelDocument } from "./serialize-chattel-document";

export type UpdateChattelDocumentOptions = {
  principal: Principal;
  documentId: string;
  /** Moves the document within its organization; null lifts it to the wider place. */
  companyId?: number | null;
  locationId?: number | null;
  fields: Partial<ChattelDocumentFields>;
  ipAddress?: string | null;
};

/** Changes a document's fields or its place within the organization; both places must be the caller's. */
export async function updateChattelDocument(db: Db, options: UpdateChattelDocumentOptions): Promise<ChattelDocument> {
  const { principal } = options;
  requireCapability(principal, "documents:write", "You do not have permission to update documents.");
  return db.transaction(async (tx) => {
    const before = await getChattelDocumentOrThrow(tx, {
      principal,
      documentId: options.documentId,
      capability: "documents:write",
      lock: true,
    });
    let placement = {};
    if (options.companyId !== undefined || options.locationId !== undefined) {
      placement = await resolveDocumentPlacement(tx, {
        principal,
        capability: "documents:write",
        organizationId: before.organizationId,
        // A new location brings its own company unless one is named alongside it.
        companyId: options.companyId !== undefined ? options.companyId : options.locationId != null ? undefined : before.companyId,
        locationId: options.locationId === undefined ? before.locationId : options.locationId,
      });
    }
    if (options.fields.signingPackageId) {
      await assertPackageInOrganization(tx, { signingPackageId: options.fields.signingPackageId, organizationId: before.organizationId });
    }
    const [after] = await tx
      .update(chattelDocuments)
      .set({ ...options.fields, ...placement })
      .where(eq(chattelDocuments.id, before.id))
      .returning();
    await recordAuditEntry(tx, {
      organizationId: before.organizationId,
      actorUserId: principal.user.id,
      action: "document.updated",
      entityType: "chattel_document",
      entityId: before.id,
      ipAddress: options.ipAddress,
      before: serializeChattelDocument(before),
      after: serializeChattelDocument(after!),
    });
    return after!;
  });
}
