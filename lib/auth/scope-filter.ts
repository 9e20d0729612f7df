import { and, eq, or, sql, type SQL } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import { getEnv } from "@/lib/env";
import type { Capability } from "./capabilities";
import { scopesWith, type Principal } from "./principal";

export type ScopeColumns = { organizationId: AnyPgColumn; companyId?: AnyPgColumn; locationId?: AnyPgColumn };

export type ScopeFilter = {
  /** SQL condition selecting the rows the principal may see; `sql\`false\`` when none. */
  where: SQL;
  /** Set when the principal reads through a global (admin) scope: lists stop at this many rows. */
  cap: number | null;
};

/**
 * The rows a principal may reach with `capability`, as one SQL condition for list queries. A global
 * scope (admin) reads everything but is capped per resource by ADMIN_READ_CAP (an admin's global read is capped per resource); lists
 * state the cap in their response.
 */
export function scopeFilter(principal: Principal, capability: Capability, columns: ScopeColumns): ScopeFilter {
  const scopes = scopesWith(principal, capability);
  if (scopes.some((s) => s.type === "global")) return { where: sql`true`, cap: getEnv().ADMIN_READ_CAP };
  const conditions: SQL[] = [];
  for (const scope of scopes) {
    if (scope.type === "organization") conditions.push(eq(columns.organizationId, scope.organizationId));
    else if (scope.type === "company" && columns.companyId) {
      conditions.push(and(eq(columns.organizationId, scope.organizationId), eq(columns.companyId, scope.companyId))!);
    } else if (scope.type === "location" && columns.locationId) {
      conditions.push(and(eq(columns.organizationId, scope.organizationId), eq(columns.locationId, scope.locationId))!);
    }
  }
  return { where: conditions.length > 0 ? or(...conditions)! : sql`false`, cap: null };
}
