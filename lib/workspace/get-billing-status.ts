import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { billingRecords } from "@/db/schema";
import type { Principal } from "@/lib/auth/principal";
import { iso } from "@/lib/iso";
import { resolveOrganizationId } from "@/lib/auth/resolve-organization-id";

export type BillingStatusJson = {
  organizationId: number;
  status: (typeof billingRecords.$inferSelect)["status"];
  planTier: (typeof billingRecords.$inferSelect)["planTier"];
  currentPeriodEnd: string | null;
};

/** The organization's billing record as the payment webhooks left it; free and active when there is none yet. */
export async function getBillingStatus(db: Db, options: { principal: Principal; organizationId?: number }): Promise<BillingStatusJson> {
  const organizationId = resolveOrganizationId(options.principal, {
    capability: "billing:read",
    organizationId: options.organizationId,
    forbidden: "You do not have permission to read billing.",
  });
  const [record] = await db.select().from(billingRecords).where(eq(billingRecords.organizationId, organizationId));
  return {
    organizationId,
    status: record?.status ?? "active",
    planTier: record?.planTier ?? "free",
    currentPeriodEnd: iso(record?.currentPeriodEnd ?? null),
  };
}
