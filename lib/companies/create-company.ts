import type { Db } from "@/db/client";
import { companies, type Company } from "@/db/schema";
import { recordAuditEntry } from "@/lib/audit/record-audit-entry";
import { requireCapability, type Principal } from "@/lib/auth/principal";
import { getOrganizationOrThrow } from "@/lib/organizations/get-organization-or-throw";
import { serializeCompany } from "./serialize-company";

/** Creates a company in an organization where the caller is an organization-level manager or org_admin. */
export async function createCompany(
  db: Db,
  options: { principal: Principal; organizationId: number; name: string; ipAddress?: string | null },
): Promise<Company> {
  requireCapability(options.principal, "companies:write", "You do not have permission to create companies.");
  return db.transaction(async (tx) => {
    const organization = await getOrganizationOrThrow(tx, {
      ...options,
      capability: "companies:write",
      organizationWide: { forbiddenMessage: "Creating a company needs an organization-level role." },
    });
    const [created] = await tx.insert(companies).values({ organizationId: organization.id, name: options.name }).returning();
    await recordAuditEntry(tx, {
      organizationId: organization.id,
      actorUserId: options.principal.user.id,
      action: "company.created",
      entityType: "company",
      entityId: String(created!.id),
      ipAddress: options.ipAddress,
      after: serializeCompany(created!),
    });
    return created!;
  });
}
