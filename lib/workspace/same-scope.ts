import { and, eq, isNull, type SQL } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import { memberships, type Membership } from "@/db/schema";

/** Memberships at exactly this organization / company / location (nulls compared as equal). */
export function sameScope(scope: Pick<Membership, "organizationId" | "companyId" | "locationId">): SQL {
  const column = (c: AnyPgColumn, v: number | null) => (v === null ? isNull(c) : eq(c, v));
  return and(
    column(memberships.organizationId, scope.organizationId),
    column(memberships.companyId, scope.companyId),
    column(memberships.locationId, scope.locationId),
  )!;
}
