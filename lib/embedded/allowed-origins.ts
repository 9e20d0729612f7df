import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { organizations, type OrganizationSettings } from "@/db/schema";
import { recordAuditEntry } from "@/lib/audit/record-audit-entry";
import type { Principal } from "@/lib/auth/principal";
import { getEnv, isLocalAddress } from "@/lib/env";
import { BadRequest, NotFound } from "@/lib/errors";
import { resolveOrganizationId } from "@/lib/auth/resolve-organization-id";
import { checkFramingOrigins } from "./framing-origins";

/** http on loopback is for trials and tests: outside production, or when the app itself runs on this machine. */
export function loopbackHttpAllowed(): boolean {
  const env = getEnv();
  return env.NODE_ENV !== "production" || isLocalAddress(env.APP_URL);
}

/** The organization's origins allowed to frame embedded signing (none: nobody may frame it). */
export async function getFramingOrigins(db: Db, organizationId: number): Promise<string[]> {
  const [org] = await db.select({ settings: organizations.settings }).from(organizations).where(eq(organizations.id, organizationId));
  return org?.settings.embedAllowedOrigins ?? [];
}

/** Reads the list for an admin (`settings:read`). */
export async function readFramingOrigins(db: Db, options: { principal: Principal; organizationId?: number }): Promise<{ organizationId: number; origins: string[] }> {
  const organizationId = resolveOrganizationId(options.principal, {
    capability: "settings:read",
    organizationId: options.organizationId,
    forbidden: "You do not have permission to read workspace settings.",
  });
  return { organizationId, origins: await getFramingOrigins(db, organizationId) };
}

/**
 * Replaces the list (`settings:write`). Each origin is checked strictly (lib/embedded/framing-origins.ts);
 * one bad origin refuses the whole list with 400 and changes nothing. An empty list stops all framing.
 */
export async function replaceFramingOrigins(
  db: Db,
  options: { principal: Principal; organizationId?: number; origins: readonly string[]; ipAddress?: string | null },
): Promise<{ organizationId: number; origins: string[] }> {
  const organizationId = resolveOrganizationId(options.principal, {
    capability: "settings:write",
    organizationId: options.organizationId,
    forbidden: "You do not have permission to change workspace settings.",
  });
  const checked = checkFramingOrigins(options.origins, { allowLoopbackHttp: loopbackHttpAllowed() });
  if (!checked.ok) throw BadRequest(checked.reason);
  return db.transaction(async (tx) => {
    const [before] = await tx.select().from(organizations).where(eq(organizations.id, organizationId)).for("update");
    if (!before) throw NotFound(`Organization ${organizationId} not found.`);
    const settings: OrganizationSettings = { ...before.settings };
    if (checked.origins.length) settings.embedAllowedOrigins = checked.origins;
    else delete settings.embedAllowedOrigins;
    await tx.update(organizations).set({ settings }).where(eq(organizations.id, organizationId));
    await recordAuditEntry(tx, {
      organizationId,
      actorUserId: options.principal.user.id,
      action: "settings.embed_origins_updated",
      entityType: "organization",
      entityId: String(organizationId),
      ipAddress: options.ipAddress,
      before: { origins: before.settings.embedAllowedOrigins ?? [] },
      after: { origins: checked.origins },
    });
    return { organizationId, origins: checked.origins };
  });
}
