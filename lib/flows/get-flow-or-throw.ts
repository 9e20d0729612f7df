import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { flows, type Flow } from "@/db/schema";
import { authorizeOrganizationResource } from "@/lib/auth/authorize-organization-resource";
import type { Capability } from "@/lib/auth/capabilities";
import type { Principal } from "@/lib/auth/principal";
import { NotFound } from "@/lib/errors";
import { isUuid } from "@/lib/ids";

/** Loads a flow of one of the caller's organizations; changing it needs an organization-wide role. */
export async function getFlowOrThrow(
  db: Db,
  options: { principal: Principal; flowId: string; capability: Capability; forbiddenMessage?: string; lock?: boolean },
): Promise<Flow> {
  const notFound = NotFound(`Flow ${options.flowId} not found.`);
  if (!isUuid(options.flowId)) throw notFound;
  const query = db.select().from(flows).where(eq(flows.id, options.flowId)).limit(1);
  const [flow] = options.lock ? await query.for("update") : await query;
  if (!flow) throw notFound;
  authorizeOrganizationResource(options.principal, options.capability, flow.organizationId, {
    notFound,
    ...(options.forbiddenMessage ? { organizationWide: { forbiddenMessage: options.forbiddenMessage } } : {}),
  });
  return flow;
}
