import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { templates, type Template } from "@/db/schema";
import { authorizeOrganizationResource } from "@/lib/auth/authorize-organization-resource";
import type { Capability } from "@/lib/auth/capabilities";
import type { Principal } from "@/lib/auth/principal";
import { NotFound } from "@/lib/errors";
import { isUuid } from "@/lib/ids";

/** Loads a template of one of the caller's organizations; changing it needs an organization-wide role. */
export async function getTemplateOrThrow(
  db: Db,
  options: { principal: Principal; templateId: string; capability: Capability; forbiddenMessage?: string; lock?: boolean },
): Promise<Template> {
  const notFound = NotFound(`Template ${options.templateId} not found.`);
  if (!isUuid(options.templateId)) throw notFound;
  const query = db.select().from(templates).where(eq(templates.id, options.templateId)).limit(1);
  const [template] = options.lock ? await query.for("update") : await query;
  if (!template) throw notFound;
  authorizeOrganizationResource(options.principal, options.capability, template.organizationId, {
    notFound,
    ...(options.forbiddenMessage ? { organizationWide: { forbiddenMessage: options.forbiddenMessage } } : {}),
  });
  return template;
}
