import type { Template } from "@/db/schema";

export function serializeTemplate(t: Template) {
  return {
    id: t.id,
    organizationId: t.organizationId,
    name: t.name,
    description: t.description,
    roles: t.roles,
    signerAuthMethod: t.signerAuthMethod,
    createdByUserId: t.createdByUserId,
    createdAt: t.createdAt.toISOString(),
    updatedAt: t.updatedAt.toISOString(),
  };
}
