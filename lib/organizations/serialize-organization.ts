import type { Organization } from "@/db/schema";

export function serializeOrganization(o: Organization) {
  return { id: o.id, name: o.name, slug: o.slug, createdAt: o.createdAt.toISOString(), updatedAt: o.updatedAt.toISOString() };
}
