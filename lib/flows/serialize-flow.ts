import type { Flow } from "@/db/schema";

export function serializeFlow(f: Flow) {
  return {
    id: f.id,
    organizationId: f.organizationId,
    name: f.name,
    steps: f.steps,
    isDefault: f.isDefault,
    createdAt: f.createdAt.toISOString(),
    updatedAt: f.updatedAt.toISOString(),
  };
}
