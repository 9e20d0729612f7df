import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { templates, type SignerProofMethod, type Template, type TemplateRole } from "@/db/schema";
import { recordAuditEntry } from "@/lib/audit/record-audit-entry";
import { requireCapability, type Principal } from "@/lib/auth/principal";
import { getTemplateOrThrow } from "./get-template-or-throw";
import { serializeTemplate } from "./serialize-template";

const FORBIDDEN = "Changing a template needs an organization-level role.";

/** Edits a template's name, description, roles or signers' method of proof. Packages created from it earlier keep their copies. */
export async function updateTemplate(
  db: Db,
  options: {
    principal: Principal;
    templateId: string;
    name?: string;
    description?: string | null;
    roles?: TemplateRole[];
    signerAuthMethod?: SignerProofMethod;
    ipAddress?: string | null;
  },
): Promise<Template> {
  requireCapability(options.principal, "templates:write", "You do not have permission to change templates.");
  return db.transaction(async (tx) => {
    const before = await getTemplateOrThrow(tx, { ...options, capability: "templates:write", forbiddenMessage: FORBIDDEN, lock: true });
    const [after] = await tx
      .update(templates)
      .set({
        ...(options.name !== undefined ? { name: options.name } : {}),
        ...(options.description !== undefined ? { description: options.description } : {}),
        ...(options.roles !== undefined ? { roles: options.roles } : {}),
        ...(options.signerAuthMethod !== undefined ? { signerAuthMethod: options.signerAuthMethod } : {}),
        updatedAt: new Date(),
      })
      .where(eq(templates.id, before.id))
      .returning();
    await recordAuditEntry(tx, {
      organizationId: before.organizationId,
      actorUserId: options.principal.user.id,
      action: "template.updated",
      entityType: "template",
      entityId: before.id,
      ipAddress: options.ipAddress,
      before: serializeTemplate(before),
      after: serializeTemplate(after!),
    });
    return after!;
  });
}
