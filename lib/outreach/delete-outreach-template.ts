import { and, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { outreachTemplates } from "@/db/schema";
import type { Principal } from "@/lib/auth/principal";
import { NotFound } from "@/lib/errors";
import { resolveOrganizationId } from "@/lib/auth/resolve-organization-id";
import type { OutreachPurpose } from "./built-in-templates";

/** Removes the organization's own template for a purpose, so the built-in applies again (404 when there is none). */
export async function deleteOutreachTemplate(
  db: Db,
  options: { principal: Principal; organizationId?: number; purpose: OutreachPurpose },
): Promise<void> {
  const organizationId = resolveOrganizationId(options.principal, {
    capability: "outreach:write",
    organizationId: options.organizationId,
    forbidden: "You do not have permission to change outreach templates.",
  });
  const deleted = await db
    .delete(outreachTemplates)
    .where(and(eq(outreachTemplates.organizationId, organizationId), eq(outreachTemplates.purpose, options.purpose)))
    .returning({ id: outreachTemplates.id });
  if (deleted.length === 0) throw NotFound(`The organization has no own ${options.purpose} template.`);
}
