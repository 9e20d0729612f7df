import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { organizations } from "@/db/schema";
import type { Principal } from "@/lib/auth/principal";
import { findOrganizationLogo } from "@/lib/branding/organization-logo";
import { NotFound } from "@/lib/errors";
import { resolveOrganizationId } from "@/lib/auth/resolve-organization-id";
import { serializeWorkspaceSettings, type WorkspaceSettingsJson } from "./serialize-workspace-settings";

/** The organization's name, branding and defaults, for its org admins. */
export async function getWorkspaceSettings(db: Db, options: { principal: Principal; organizationId?: number }): Promise<WorkspaceSettingsJson> {
  const organizationId = resolveOrganizationId(options.principal, {
    capability: "settings:read",
    organizationId: options.organizationId,
    forbidden: "You do not have permission to read workspace settings.",
  });
  const [organization] = await db.select().from(organizations).where(eq(organizations.id, organizationId));
  if (!organization) throw NotFound(`Organization ${organizationId} not found.`);
  return serializeWorkspaceSettings(organization, await findOrganizationLogo(db, organizationId));
}
