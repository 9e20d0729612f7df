import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { organizations, userInviteTokens, users } from "@/db/schema";
import { hashInviteToken, INVITE_TOKEN_PATTERN, type InviteLinkProblem } from "./invite-token-format";

export type FindInviteOptions = { token: string; now?: Date };

export type FoundInvite =
  | {
      status: "valid";
      tokenId: string;
      userId: string;
      email: string;
      name: string;
      organizationId: number;
      organizationName: string;
      expiresAt: Date;
    }
  | { status: InviteLinkProblem };

/**
 * Reads an invitation link without using it: who it is for and from which organization, or why it
 * cannot be used. The token is found by its SHA-256. Unknown tokens, malformed tokens, deactivated
 * users and users the local provider does not manage are all `invalid`; a user who already has a
 * password counts as `used` (the link must not become a password reset).
 */
export async function findInvite(db: Db, options: FindInviteOptions): Promise<FoundInvite> {
  const token = options.token.trim();
  if (!INVITE_TOKEN_PATTERN.test(token)) return { status: "invalid" };
  const now = options.now ?? new Date();
  const [row] = await db
    .select({
      tokenId: userInviteTokens.id,
      expiresAt: userInviteTokens.expiresAt,
      usedAt: userInviteTokens.usedAt,
      revokedAt: userInviteTokens.revokedAt,
      userId: users.id,
      email: users.email,
      name: users.name,
      authProvider: users.authProvider,
      isActive: users.isActive,
      hasPassword: users.passwordHash,
      organizationId: organizations.id,
      organizationName: organizations.name,
    })
    .from(userInviteTokens)
    .innerJoin(users, eq(users.id, userInviteTokens.userId))
    .innerJoin(organizations, eq(organizations.id, userInviteTokens.organizationId))
    .where(eq(userInviteTokens.tokenHash, hashInviteToken(token)))
    .limit(1);
  if (!row || !row.isActive || row.authProvider !== "local") return { status: "invalid" };
  if (row.usedAt || row.hasPassword) return { status: "used" };
  if (row.revokedAt) return { status: "superseded" };
  if (row.expiresAt <= now) return { status: "expired" };
  return {
    status: "valid",
    tokenId: row.tokenId,
    userId: row.userId,
    email: row.email,
    name: row.name,
    organizationId: row.organizationId,
    organizationName: row.organizationName,
    expiresAt: row.expiresAt,
  };
}
