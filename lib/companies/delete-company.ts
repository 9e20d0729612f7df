import { eq, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { companies, locations, memberships, signingPackages } from "@/db/schema";
import { recordAuditEntry } from "@/lib/audit/record-audit-entry";
import { requireCapability, type Principal } from "@/lib/auth/principal";
import { pgErrorCode } from "@/lib/db/pg-error-code";
import { Conflict } from "@/lib/errors";
import { getCompanyOrThrow } from "./get-company-or-throw";
import { serializeCompany } from "./serialize-company";

const count = sql<number>`count(*)::int`;

/** Deletes an empty company; 409 while it has locations, signing packages or role assignments. */
export async function deleteCompany(db: Db, options: { principal: Principal; companyId: number; ipAddress?: string | null }): Promise<void> {
  requireCapability(options.principal, "companies:write", "You do not have permission to delete companies.");
  try {
    await db.transaction(async (tx) => {
      const company = await getCompanyOrThrow(tx, { ...options, capability: "companies:write" });
      await tx.execute(sql`select 1 from ${companies} where ${companies.id} = ${company.id} for update`);
      const [l] = await tx.select({ n: count }).from(locations).where(eq(locations.companyId, company.id));
      const [p] = await tx.select({ n: count }).from(signingPackages).where(eq(signingPackages.companyId, company.id));
      const [m] = await tx.select({ n: count }).from(memberships).where(eq(memberships.companyId, company.id));
      const dependents = (
        [
          [l!.n, "locations"],
          [p!.n, "signing packages"],
          [m!.n, "role assignments"],
        ] as const
      ).filter(([n]) => n > 0);
      if (dependents.length > 0) {
        throw Conflict(`Company ${company.id} still has ${dependents.map(([n, what]) => `${n} ${what}`).join(", ")}; remove them first.`);
      }
      await tx.delete(companies).where(eq(companies.id, company.id));
      await recordAuditEntry(tx, {
        organizationId: company.organizationId,
        actorUserId: options.principal.user.id,
        action: "company.deleted",
        entityType: "company",
        entityId: String(company.id),
        ipAddress: options.ipAddress,
        before: serializeCompany(company),
      });
    });
  } catch (error) {
    if (pgErrorCode(error) === "23503") throw Conflict(`Company ${options.companyId} still has dependent records.`);
    throw error;
  }
}
