import { and, eq, isNotNull, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { companies, locations, memberships, organizations, users } from "@/db/schema";
import { recordAuditEntry } from "@/lib/audit/record-audit-entry";
import { createInviteToken } from "@/lib/auth/create-invite-token";
import { localSubjectForEmail } from "@/lib/auth/local-tokens";
import type { Principal } from "@/lib/auth/principal";
import { sendEmailDeclaration } from "@/lib/email/send-email-payload";
import { isClerkConfigured } from "@/lib/env";
import { Conflict, NotFound } from "@/lib/errors";
import { enqueueJob } from "@/lib/jobs/enqueue-job";
import type { MemberRole } from "./change-member-role";
import { resolveOrganizationId } from "@/lib/auth/resolve-organization-id";
import { sameScope } from "./same-scope";
import { serializeMembership, type MembershipJson } from "./serialize-membership";

export type InviteMemberOptions = {
  principal: Principal;
  email: string;
  name?: string;
  role: MemberRole;
  organizationId?: number;
  /** Narrows the role to a company or a location of the organization. */
  companyId?: number;
  locationId?: number;
  ipAddress?: string | null;
};

/**
 * Gives a person a role in the caller's organization and mails them an invitation (job
 * `send-email`, in the same transaction). An unknown email gets a new user row:
 * - with Clerk configured, without an auth subject: the identity webhook links it on their first
 *   sign-in with that (verified) email;
 * - with the local identity provider, with the subject `local|<email>`: tokens work at once
 *   (`npm run token`), browser sign-in once a password is set.
 * Known users keep their row. The same role at the same scope twice is a 409.
 * The answer is the same whether the address is new or belongs to a user elsewhere: until the
 * person accepts (signs in, or sets a password through the link) the membership shows the address
 * and name the inviter typed (`serializeMembership`), never the existing user's profile — unless
 * they are already an accepted member of this organization.
 * With the local provider, an active local user without a password also gets a single-use link
 * `APP_URL/accept-invite?token=…` (7 days) in the email to set one; a newer invitation revokes
 * the older links (`createInviteToken`, same transaction).
 */
export async function inviteMember(db: Db, options: InviteMemberOptions): Promise<MembershipJson> {
  const organizationId = resolveOrganizationId(options.principal, {
    capability: "memberships:write",
    organizationId: options.organizationId,
    forbidden: "You do not have permission to invite members.",
  });
  const email = options.email.trim();
  return db.transaction(async (tx) => {
    const [organization] = await tx.select().from(organizations).where(eq(organizations.id, organizationId)).for("update");
    if (!organization) throw NotFound(`Organization ${organizationId} not found.`);
    let companyId: number | null = options.companyId ?? null;
    let locationId: number | null = null;
    if (options.locationId !== undefined) {
      const [location] = await tx
        .select()
        .from(locations)
        .where(and(eq(locations.id, options.locationId), eq(locations.organizationId, organizationId)));
      if (!location || (companyId !== null && location.companyId !== companyId)) throw NotFound(`Location ${options.locationId} not found.`);
      companyId = location.companyId;
      locationId = location.id;
    } else if (companyId !== null) {
      const [company] = await tx.select().from(companies).where(and(eq(companies.id, companyId), eq(companies.organizationId, organizationId)));
      if (!company) throw NotFound(`Company ${companyId} not found.`);
    }

    let [user] = await tx.select().from(users).where(sql`lower(${users.email}) = lower(${email})`).limit(1);
    if (!user) {
      const clerk = isClerkConfigured();
      [user] = await tx
        .insert(users)
        .values({
          email,
          name: options.name?.trim() || email.split("@")[0]!,
          authProvider: clerk ? "clerk" : "local",
          authSubject: clerk ? null : localSubjectForEmail(email),
        })
        .returning();
    }
    const scope = { organizationId, companyId, locationId };
    const [existing] = await tx
      .select({ id: memberships.id })
      .from(memberships)
      .where(and(eq(memberships.userId, user!.id), eq(memberships.role, options.role), sameScope(scope)))
      .limit(1);
    if (existing) throw Conflict(`${email} already has the ${options.role} role there.`);
    const [member] = await tx
      .select({ id: memberships.id })
      .from(memberships)
      .where(and(eq(memberships.userId, user!.id), eq(memberships.organizationId, organizationId), isNotNull(memberships.acceptedAt)))
      .limit(1);
    const [membership] = await tx
      .insert(memberships)
      .values({
        userId: user!.id,
        role: options.role,
        ...scope,
        invitedEmail: email,
        invitedName: options.name?.trim() || null,
        acceptedAt: member ? new Date() : null,
      })
      .returning();
    const json = serializeMembership({ ...membership!, user: user! });

    const needsPassword = !isClerkConfigured() && user!.authProvider === "local" && !user!.passwordHash && user!.isActive;
    const invite = needsPassword ? await createInviteToken(tx, { userId: user!.id, organizationId }) : undefined;
    // Rendered, with the password link, when the job sends it (no link in the payload).
    await enqueueJob(
      tx,
      sendEmailDeclaration,
      {
        message: "member-invitation",
        membershipId: membership!.id,
        organizationId,
        inviteTokenId: invite?.id,
        inviterName: options.principal.user.name.trim().slice(0, 200) || "Your administrator",
      },
      { idempotencyKey: `invite:${membership!.id}` },
    );
    await recordAuditEntry(tx, {
      organizationId,
      actorUserId: options.principal.user.id,
      action: "membership.invited",
      entityType: "membership",
      entityId: membership!.id,
      ipAddress: options.ipAddress,
      after: json,
    });
    return json;
  });
}
