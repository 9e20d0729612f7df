import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { outreachTemplates } from "@/db/schema";
import type { Principal } from "@/lib/auth/principal";
import { resolveOrganizationId } from "@/lib/auth/resolve-organization-id";
import { BUILT_IN_TEMPLATES, OUTREACH_PURPOSES, type OutreachPurpose } from "./built-in-templates";

export type OutreachTemplateJson = {
  organizationId: number;
  purpose: OutreachPurpose;
  subject: string;
  body: string;
  source: "built_in" | "organization";
  updatedAt: string | null;
};

/** The template in effect for each purpose: the organization's own, else the built-in. */
export async function listOutreachTemplates(db: Db, options: { principal: Principal; organizationId?: number }): Promise<OutreachTemplateJson[]> {
  const organizationId = resolveOrganizationId(options.principal, {
    capability: "outreach:read",
    organizationId: options.organizationId,
    forbidden: "You do not have permission to read outreach templates.",
  });
  const saved = await db.select().from(outreachTemplates).where(eq(outreachTemplates.organizationId, organizationId));
  return OUTREACH_PURPOSES.map((purpose) => {
    const own = saved.find((t) => t.purpose === purpose);
    return own
      ? { organizationId, purpose, subject: own.subject, body: own.body, source: "organization", updatedAt: own.updatedAt.toISOString() }
      : { organizationId, purpose, ...BUILT_IN_TEMPLATES[purpose], source: "built_in", updatedAt: null };
  });
}
