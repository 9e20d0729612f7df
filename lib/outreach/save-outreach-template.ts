import type { Db } from "@/db/client";
import { outreachTemplates } from "@/db/schema";
import type { Principal } from "@/lib/auth/principal";
import { resolveOrganizationId } from "@/lib/auth/resolve-organization-id";
import type { OutreachPurpose } from "./built-in-templates";
import type { OutreachTemplateJson } from "./list-outreach-templates";
import { renderTemplate } from "./render-template";

/** Saves the organization's own template for a purpose (replacing an earlier one); variables are checked. */
export async function saveOutreachTemplate(
  db: Db,
  options: { principal: Principal; organizationId?: number; purpose: OutreachPurpose; subject: string; body: string },
): Promise<OutreachTemplateJson> {
  const organizationId = resolveOrganizationId(options.principal, {
    capability: "outreach:write",
    organizationId: options.organizationId,
    forbidden: "You do not have permission to change outreach templates.",
  });
  renderTemplate(options.subject, {}, "subject");
  renderTemplate(options.body, {}, "body");
  const [row] = await db
    .insert(outreachTemplates)
    .values({ organizationId, purpose: options.purpose, subject: options.subject, body: options.body })
    .onConflictDoUpdate({
      target: [outreachTemplates.organizationId, outreachTemplates.purpose],
      set: { subject: options.subject, body: options.body, updatedAt: new Date() },
    })
    .returning();
  return { organizationId, purpose: row!.purpose, subject: row!.subject, body: row!.body, source: "organization", updatedAt: row!.updatedAt.toISOString() };
}
