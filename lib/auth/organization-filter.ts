import { inArray, sql, type SQL } from "drizzle-orm";
import type { AnyPgColumn } from "drizzle-orm/pg-core";
import { getEnv } from "@/lib/env";
import type { Capability } from "./capabilities";
import { scopesWith, type Principal } from "./principal";

/**
 * List scoping for organization-wide resources (templates, flows): rows of every organization in
 * which some role grants `capability`; a global scope reads all, capped by ADMIN_READ_CAP.
 */
export function organizationFilter(
  principal: Principal,
  capability: Capability,
  organizationId: AnyPgColumn,
): { where: SQL; cap: number | null } {
  const scopes = scopesWith(principal, capability);
  if (scopes.some((s) => s.type === "global")) return { where: sql`true`, cap: getEnv().ADMIN_READ_CAP };
  const ids = [...new Set(scopes.flatMap((s) => (s.type === "global" ? [] : [s.organizationId])))];
  return { where: ids.length > 0 ? inArray(organizationId, ids) : sql`false`, cap: null };
}
