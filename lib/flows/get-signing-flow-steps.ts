import { and, asc, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { flows, type FlowStep } from "@/db/schema";

/** The steps of a package without a flow whose organization has no default flow either. */
export const BUILT_IN_FLOW_STEPS: readonly FlowStep[] = ["review", "sign", "done"];

export type GetSigningFlowStepsOptions = { organizationId: number; flowId: string | null };

/**
 * The steps a signer goes through for one package: the package's own flow, else the organization's
 * default flow, else review → sign → done. A flow of another organization is never used.
 */
export async function getSigningFlowSteps(db: Db, options: GetSigningFlowStepsOptions): Promise<FlowStep[]> {
  if (options.flowId) {
    const [own] = await db
      .select({ steps: flows.steps })
      .from(flows)
      .where(and(eq(flows.id, options.flowId), eq(flows.organizationId, options.organizationId)))
      .limit(1);
    if (own) return own.steps;
  }
  const [fallback] = await db
    .select({ steps: flows.steps })
    .from(flows)
    .where(and(eq(flows.organizationId, options.organizationId), eq(flows.isDefault, true)))
    .orderBy(asc(flows.createdAt), asc(flows.id))
    .limit(1);
  return fallback?.steps ?? [...BUILT_IN_FLOW_STEPS];
}
