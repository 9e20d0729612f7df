import type { Membership, User } from "@/db/schema";

export type MembershipJson = ReturnType<typeof serializeMembership>;

/**
 * A role assignment with its user. `pending`: invited, not accepted yet. Until then the user is
 * shown as the inviter typed them (address, and name or else the address): the person may be
 * another organization's user, whose own name and sign-in activity are not this organization's to see.
 */
export function serializeMembership(m: Membership & { user: Pick<User, "id" | "email" | "name"> }) {
  const pending = m.acceptedAt === null;
  const email = pending ? (m.invitedEmail ?? m.user.email) : m.user.email;
  return {
    id: m.id,
    role: m.role,
    organizationId: m.organizationId!,
    companyId: m.companyId,
    locationId: m.locationId,
    user: { id: m.user.id, email, name: pending ? (m.invitedName ?? email) : m.user.name, pending },
    createdAt: m.createdAt.toISOString(),
    updatedAt: m.updatedAt.toISOString(),
  };
}
