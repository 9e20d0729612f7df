import { eq, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { companies, organizations, signingPackages, templates } from "@/db/schema";
import { recordAuditEntry } from "@/lib/audit/record-audit-entry";
import { requireCapability, type Principal } from "@/lib/auth/principal";
import { pgErrorCode } from "@/lib/db/pg-error-code";
import { Conflict } from "@/lib/errors";
import { getOrganizationOrThrow } from "./get-organization-or-throw";
import { serializeOrganization } from "./serialize-organization";

const FORBIDDEN = "You do not have permission to delete this organization.";
const count = sql<number>`count(*)::int`;

/**
 * Deletes an empty organization (its memberships, flows and settings go with it); 409 while it
 * still has companies, signing packages or templates, which must be removed deliberately first.
 */
export async function deleteOrganization(
  db: Db,
  options: { principal: Principal; organizationId: number; ipAddress?: string | null },
): Promise<void> {
  requireCapability(options.principal, "organizations:write", FORBIDDEN);
  try {
    await db.transaction(async (tx) => {
      const organization = await getOrganizationOrThrow(tx, {
        ...options,
        capability: "organizations:write",
        organizationWide: { forbiddenMessage: FORBIDDEN },
      });
      await tx.execute(sql`select 1 from ${organizations} where ${organizations.id} = ${organization.id} for update`);
      const [c] = await tx.select({ n: count }).from(companies).where(eq(companies.organizationId, organization.id));
      const [p] = await tx.select({ n: count }).from(signingPackages).where(eq(signingPackages.organizationId, organization.id));
      const [t] = await tx.select({ n: count }).from(templates).where(eq(templates.organizationId, organization.id));
      const dependents = [
        [c!.n, "companies"],
        [p!.n, "signing packages"],
        [t!.n, "templates"],
      ].filter(([n]) => (n as number) > 0);
      if (dependents.length > 0) {
        throw Conflict(`Organization ${organization.id} still has ${dependents.map(([n, what]) => `${n} ${what}`).join(", ")}; remove them first.`);
      }
      await tx.delete(organizations).where(eq(organizations.id, organization.id));
      await recordAuditEntry(tx, {
        organizationId: organization.id,
        actorUserId: options.principal.user.id,
        action: "organization.deleted",
        entityType: "organization",
        entityId: String(organization.id),
        ipAddress: options.ipAddress,
        before: serializeOrganization(organization),
      });
    });
  } catch (error) {
    if (pgErrorCode(error) === "23503") throw Conflict(`Organization ${options.organizationId} still has dependent records.`);
    throw error;
  }
}
