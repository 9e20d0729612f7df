import { eq } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/db/client";
import { memberships, organizations, userInviteTokens, users } from "@/db/schema";
import type { Email } from "@/lib/email/send-email";
import type { memberInviteEmailSchema } from "@/lib/email/send-email-payload";
import { memberInviteEmail } from "@/lib/email/templates/member-invite-email";
import { getEnv } from "@/lib/env";
import { inviteLinkToken } from "@/lib/security/secrets";


/** Renders the invitation at send time; null when the membership or organization is gone. */
export async function renderMemberInviteEmail(db: Db, payload: z.output<typeof memberInviteEmailSchema>): Promise<Email | null> {
  const [row] = await db
    .select({ membership: memberships, user: users })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(eq(memberships.id, payload.membershipId));
  const [organization] = await db.select({ name: organizations.name }).from(organizations).where(eq(organizations.id, payload.organizationId));
  if (!row || !organization) return null;
  const [invite] = payload.inviteTokenId
    ? await db.select({ id: userInviteTokens.id, expiresAt: userInviteTokens.expiresAt }).from(userInviteTokens).where(eq(userInviteTokens.id, payload.inviteTokenId))
    : [];
  const appUrl = getEnv().APP_URL;
  const mail = memberInviteEmail({
    recipientName: row.user.name,
    recipientEmail: row.user.email,
    inviterName: payload.inviterName,
    organizationName: organization.name,
    role: row.membership.role,
    signInUrl: `${appUrl}/sign-in`,
    passwordLink: invite ? { url: `${appUrl}/accept-invite?token=${inviteLinkToken(invite.id)}`, expiresAt: invite.expiresAt } : undefined,
  });
  return { to: row.user.email, ...mail };
}
