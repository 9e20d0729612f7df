import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { companies, type Company } from "@/db/schema";
import { recordAuditEntry } from "@/lib/audit/record-audit-entry";
import { requireCapability, type Principal } from "@/lib/auth/principal";
import { getCompanyOrThrow } from "./get-company-or-throw";
import { serializeCompany } from "./serialize-company";

/** Renames a company the caller manages. */
export async function updateCompany(
  db: Db,
  options: { principal: Principal; companyId: number; name: string; ipAddress?: string | null },
): Promise<Company> {
  requireCapability(options.principal, "companies:write", "You do not have permission to change companies.");
  return db.transaction(async (tx) => {
    const before = await getCompanyOrThrow(tx, { ...options, capability: "companies:write" });
    const [after] = await tx.update(companies).set({ name: options.name, updatedAt: new Date() }).where(eq(companies.id, before.id)).returning();
    await recordAuditEntry(tx, {
      organizationId: before.organizationId,
      actorUserId: options.principal.user.id,
      action: "company.updated",
      entityType: "company",
      entityId: String(before.id),
      ipAddress: options.ipAddress,
      before: serializeCompany(before),
      after: serializeCompany(after!),
    });
    return after!;
  });
}
