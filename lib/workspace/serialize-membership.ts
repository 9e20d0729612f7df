import type { Membership, User } from "@/db/schema";

export type MembershipJson = ReturnType<typeof serializeMembership>;

/** A role assignment with its user. `pending`: invited, never signed in yet. */
export function serializeMembership(m: Membership & { user: Pick<User, "id" | "email" | "name" | "lastSignInAt"> }) {
  return {
    id: m.id,
    role: m.role,
    organizationId: m.organizationId!,
    companyId: m.companyId,
    locationId: m.locationId,
    user: { id: m.user.id, email: m.user.email, name: m.user.name, pending: m.user.lastSignInAt === null },
    createdAt: m.createdAt.toISOString(),
    updatedAt: m.updatedAt.toISOString(),
  };
}
