import { randomBytes } from "node:crypto";
import type { Db } from "@/db/client";
import { memberships, organizations, type Organization } from "@/db/schema";
import { recordAuditEntry } from "@/lib/audit/record-audit-entry";
import { requireCapability, type Principal } from "@/lib/auth/principal";
import { pgErrorCode } from "@/lib/db/pg-error-code";
import { Conflict } from "@/lib/errors";
import { serializeOrganization } from "./serialize-organization";

const slugOf = (name: string) =>
  name
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 48) || "org";

/**
 * Creates an organization and makes the creator its org_admin, in one transaction. Only org_admins
 * (holders of `organizations:write`) may: admins read everything but write nothing by their role.
 * A derived slug gets a random suffix when taken; a requested slug that is taken is a 409.
 */
export async function createOrganization(
  db: Db,
  options: { principal: Principal; name: string; slug?: string; ipAddress?: string | null },
): Promise<Organization> {
  requireCapability(options.principal, "organizations:write", "You do not have permission to create organizations.");
  const base = options.slug ?? slugOf(options.name);
  for (let attempt = 0; ; attempt++) {
    const slug = attempt === 0 ? base : `${base}-${randomBytes(3).toString("hex")}`;
    try {
      return await db.transaction(async (tx) => {
        const [created] = await tx.insert(organizations).values({ name: options.name, slug }).returning();
        await tx.insert(memberships).values({ userId: options.principal.user.id, role: "org_admin", organizationId: created!.id });
        await recordAuditEntry(tx, {
          organizationId: created!.id,
          actorUserId: options.principal.user.id,
          action: "organization.created",
          entityType: "organization",
          entityId: String(created!.id),
          ipAddress: options.ipAddress,
          after: serializeOrganization(created!),
        });
        return created!;
      });
    } catch (error) {
      if (pgErrorCode(error) !== "23505") throw error;
      if (options.slug) throw Conflict(`The organization slug "${options.slug}" is taken.`);
      if (attempt >= 3) throw error;
    }
  }
}
