import type { Db } from "@/db/client";
import { templates, type SignerProofMethod, type Template, type TemplateRole } from "@/db/schema";
import { recordAuditEntry } from "@/lib/audit/record-audit-entry";
import { requireCapability, type Principal } from "@/lib/auth/principal";
import { getOrganizationOrThrow } from "@/lib/organizations/get-organization-or-throw";
import { serializeTemplate } from "./serialize-template";

/** Creates a template (signer roles; documents are uploaded separately) in an organization the caller manages as a whole. */
export async function createTemplate(
  db: Db,
  options: {
    principal: Principal;
    organizationId: number;
    name: string;
    description?: string | null;
    roles: TemplateRole[];
    signerAuthMethod?: SignerProofMethod;
    ipAddress?: string | null;
  },
): Promise<Template> {
  requireCapability(options.principal, "templates:write", "You do not have permission to create templates.");
  return db.transaction(async (tx) => {
    const organization = await getOrganizationOrThrow(tx, {
      ...options,
      capability: "templates:write",
      organizationWide: { forbiddenMessage: "Creating a template needs an organization-level role." },
    });
    const [created] = await tx
      .insert(templates)
      .values({
        organizationId: organization.id,
        name: options.name,
        description: options.description ?? null,
        roles: options.roles,
        ...(options.signerAuthMethod ? { signerAuthMethod: options.signerAuthMethod } : {}),
        createdByUserId: options.principal.user.id,
      })
      .returning();
    await recordAuditEntry(tx, {
      organizationId: organization.id,
      actorUserId: options.principal.user.id,
      action: "template.created",
      entityType: "template",
      entityId: created!.id,
      ipAddress: options.ipAddress,
      after: serializeTemplate(created!),
    });
    return created!;
  });
}
