import { and, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { signingPackages } from "@/db/schema";
import { NotFound } from "@/lib/errors";

/** A signing package may be linked only when it belongs to the document's organization. */
export async function assertPackageInOrganization(db: Db, options: { signingPackageId: string; organizationId: number }): Promise<void> {
  const [row] = await db
    .select({ id: signingPackages.id })
    .from(signingPackages)
    .where(and(eq(signingPackages.id, options.signingPackageId), eq(signingPackages.organizationId, options.organizationId)))
    .limit(1);
  if (!row) throw NotFound(`Signing package ${options.signingPackageId} not found.`);
}
