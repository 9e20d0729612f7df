import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { companies, type Company } from "@/db/schema";
import type { Capability } from "@/lib/auth/capabilities";
import { canAccess, type Principal } from "@/lib/auth/principal";
import { NotFound } from "@/lib/errors";
import { isIntId } from "@/lib/ids";

/** Loads a company inside one of the caller's organization- or company-level roles; otherwise 404. */
export async function getCompanyOrThrow(
  db: Db,
  options: { principal: Principal; companyId: number; capability: Capability },
): Promise<Company> {
  if (!isIntId(options.companyId)) throw NotFound(`Company ${String(options.companyId).slice(0, 64)} not found.`);
  const [company] = await db.select().from(companies).where(eq(companies.id, options.companyId)).limit(1);
  if (!company || !canAccess(options.principal, options.capability, { organizationId: company.organizationId, companyId: company.id })) {
    throw NotFound(`Company ${options.companyId} not found.`);
  }
  return company;
}
