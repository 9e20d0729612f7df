import { randomUUID } from "node:crypto";
import { and, eq, isNull } from "drizzle-orm";
import type { Db } from "@/db/client";
import { userInviteTokens } from "@/db/schema";
import { inviteLinkToken } from "@/lib/security/secrets";
import { hashInviteToken, INVITE_TOKEN_TTL_MS } from "./invite-token-format";

export type CreateInviteTokenOptions = {
  userId: string;
  /** The organization that sends the invitation (shown on the acceptance page). */
  organizationId: number;
  now?: Date;
  ttlMs?: number;
};

export type CreatedInviteToken = { id: string; token: string; expiresAt: Date };

/**
 * Issues a single-use invitation token for a local user without a password, for the link
 * `/accept-invite?token=…`. Any older unused token of that user is revoked, so only the newest
 * invitation email works. Only the token's SHA-256 is stored. The token is computed from the row's
 * random id under AUTH_SECRET (`inviteLinkToken`), so the email job computes it again when it sends
 * the mail and no job payload holds it; it is also returned here (the bootstrap script prints it).
 * Pass the caller's transaction so the token commits with the invitation that mails it.
 */
export async function createInviteToken(db: Db, options: CreateInviteTokenOptions): Promise<CreatedInviteToken> {
  const now = options.now ?? new Date();
  await db
    .update(userInviteTokens)
    .set({ revokedAt: now })
    .where(and(eq(userInviteTokens.userId, options.userId), isNull(userInviteTokens.usedAt), isNull(userInviteTokens.revokedAt)));
  const id = randomUUID();
  const token = inviteLinkToken(id);
  const expiresAt = new Date(now.getTime() + (options.ttlMs ?? INVITE_TOKEN_TTL_MS));
  await db
    .insert(userInviteTokens)
    .values({ id, userId: options.userId, organizationId: options.organizationId, tokenHash: hashInviteToken(token), expiresAt, createdAt: now });
  return { id, token, expiresAt };
}
