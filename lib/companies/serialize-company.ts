import type { Company } from "@/db/schema";

export function serializeCompany(c: Company) {
  return { id: c.id, organizationId: c.organizationId, name: c.name, createdAt: c.createdAt.toISOString(), updatedAt: c.updatedAt.toISOString() };
}
