import { and, eq, gt, isNull, ne, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { userInviteTokens, users } from "@/db/schema";
import { recordAuditEntry } from "@/lib/audit/record-audit-entry";
import { AppError, BadRequest } from "@/lib/errors";
import { findInvite } from "@/lib/auth/find-invite";
import {
  INVITE_LINK_MESSAGES,
  INVITE_PASSWORD_MAX_LENGTH,
  INVITE_PASSWORD_MIN_LENGTH,
  type InviteLinkProblem,
} from "@/lib/auth/invite-token-format";
import { localSubjectForEmail } from "@/lib/auth/local-tokens";
import { hashPassword } from "@/lib/auth/passwords";
import { acceptMemberships } from "@/lib/workspace/accept-memberships";

export type AcceptInviteOptions = { token: string; password: string; now?: Date; ipAddress?: string | null };

export type AcceptedInvite = { userId: string; email: string; organizationId: number };

/** A link that cannot be used: 404 when unknown, 409 when it was valid once (used, superseded, expired). */
function linkError(problem: InviteLinkProblem): AppError {
  return new AppError(problem === "invalid" ? "not_found" : "conflict", INVITE_LINK_MESSAGES[problem]);
}

/**
 * Accepts an invitation of the local identity provider: checks the password rules and the link
 * (unused, not superseded, unexpired, found by its SHA-256), then in one transaction marks the token
 * used, sets the user's scrypt password hash and records `user.invite_accepted`. The token is
 * claimed with a conditional update, so of two concurrent acceptances only one sets a password.
 * Password problems are 400 (the form stays); link problems are 404/409 with a message for the page.
 */
export async function acceptInvite(db: Db, options: AcceptInviteOptions): Promise<AcceptedInvite> {
  const password = options.password;
  if ([...password].length < INVITE_PASSWORD_MIN_LENGTH) {
    throw BadRequest(`Choose a password of at least ${INVITE_PASSWORD_MIN_LENGTH} characters.`);
  }
  if (password.length > INVITE_PASSWORD_MAX_LENGTH) {
    throw BadRequest(`Choose a password of at most ${INVITE_PASSWORD_MAX_LENGTH} characters.`);
  }
  if (password.trim() === "") throw BadRequest("A password cannot consist of spaces only.");

  const now = options.now ?? new Date();
  // Checked before hashing: a bad link must not cost 32 MiB of scrypt work.
  const invite = await findInvite(db, { token: options.token, now });
  if (invite.status !== "valid") throw linkError(invite.status);
  const passwordHash = await hashPassword(password);

  const accepted = await db.transaction(async (tx) => {
    const [claimed] = await tx
      .update(userInviteTokens)
      .set({ usedAt: now })
      .where(
        and(
          eq(userInviteTokens.id, invite.tokenId),
          isNull(userInviteTokens.usedAt),
          isNull(userInviteTokens.revokedAt),
          gt(userInviteTokens.expiresAt, now),
        ),
      )
      .returning({ id: userInviteTokens.id });
    if (!claimed) return null;
    const [user] = await tx
      .update(users)
      .set({ passwordHash, authSubject: sql`coalesce(${users.authSubject}, ${localSubjectForEmail(invite.email)})` })
      .where(and(eq(users.id, invite.userId), isNull(users.passwordHash), eq(users.isActive, true), eq(users.authProvider, "local")))
      .returning({ id: users.id, email: users.email });
    if (!user) throw linkError("used");
    // Only the newest token is ever unrevoked; this keeps it so even if that changes.
    await tx
      .update(userInviteTokens)
      .set({ revokedAt: now })
      .where(and(eq(userInviteTokens.userId, user.id), ne(userInviteTokens.id, claimed.id), isNull(userInviteTokens.usedAt), isNull(userInviteTokens.revokedAt)));
    await acceptMemberships(tx, { userId: user.id, organizationId: invite.organizationId, now });
    await recordAuditEntry(tx, {
      organizationId: invite.organizationId,
      actorUserId: user.id,
      action: "user.invite_accepted",
      entityType: "user",
      entityId: user.id,
      ipAddress: options.ipAddress,
      after: { email: user.email, passwordSet: true },
    });
    return { userId: user.id, email: user.email, organizationId: invite.organizationId };
  });
  if (accepted) return accepted;
  // Lost a race with another acceptance (or the link was superseded meanwhile): say why.
  const again = await findInvite(db, { token: options.token, now });
  throw linkError(again.status === "valid" ? "used" : again.status);
}
