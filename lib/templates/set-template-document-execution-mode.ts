import type { Db } from "@/db/client";
import type { ExecutionMode } from "@/db/schema";
import { requireCapability, type Principal } from "@/lib/auth/principal";
import { serializeDocumentMetadata } from "@/lib/pdf/serialize-document-metadata";
import { BadRequest } from "@/lib/errors";
import { executionModeSchema } from "@/lib/packages/execution-mode-schema";
import { getDocumentOrThrow } from "@/lib/packages/get-document-or-throw";
import { setDocumentFlag } from "@/lib/packages/set-document-flag";
import { getTemplateOrThrow } from "./get-template-or-throw";
import { templateDocumentMetadataColumns } from "./template-document-metadata-columns";

/**
 * Sets the execution mode a template document starts with in every package created from the
 * template afterwards (packages created earlier keep theirs).
 */
export async function setTemplateDocumentExecutionMode(
  db: Db,
  options: { principal: Principal; templateId: string; documentId: string; executionMode: ExecutionMode; ipAddress?: string | null },
) {
  requireCapability(options.principal, "templates:write", "You do not have permission to change templates.");
  const mode = executionModeSchema.safeParse(options.executionMode);
  if (!mode.success) throw BadRequest(mode.error.issues[0]!.message);
  return db.transaction(async (tx) => {
    const template = await getTemplateOrThrow(tx, {
      ...options,
      capability: "templates:write",
      forbiddenMessage: "Changing a template needs an organization-level role.",
      lock: true,
    });
    const document = await getDocumentOrThrow(tx, { templateId: template.id, documentId: options.documentId }, () => templateDocumentMetadataColumns);
    await setDocumentFlag(tx, { template, document, flag: "executionMode", value: mode.data, actorUserId: options.principal.user.id, ipAddress: options.ipAddress });
    return { ...serializeDocumentMetadata(document), executionMode: mode.data };
  });
}
