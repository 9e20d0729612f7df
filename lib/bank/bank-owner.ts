import { eq, type SQL } from "drizzle-orm";
import { bankItems } from "@/db/schema";
import type { Principal } from "@/lib/auth/principal";
import { actorUserIdOf } from "@/lib/signer-access/signer-session-principal";

/**
 * Whose bank link it is: an account user's (signed in), or one signer's of one package (a signer
 * session from an emailed link; `userId` is that signer's account, if there is one).
 */
export type BankOwner = { kind: "user"; userId: string } | { kind: "signer"; signerId: string; userId: string | null };

/** The bank owner behind a principal: the signer of a signer session, else the signed-in user. */
export function bankOwnerOf(principal: Principal): BankOwner {
  const session = principal.signerSession;
  if (session) return { kind: "signer", signerId: session.signerId, userId: actorUserIdOf(principal) };
  return { kind: "user", userId: principal.user.id };
}

/** The rows of that owner: a signer session sees only its signer's items, an account its user's. */
export function bankOwnerWhere(owner: BankOwner): SQL {
  return owner.kind === "signer" ? eq(bankItems.signerId, owner.signerId) : eq(bankItems.userId, owner.userId);
}

/**
 * Plaid's `client_user_id`: a stable id of ours for the person linking, never personal data
 * (our user id, or `signer:<signer id>` for a signer without an account session).
 */
export function plaidClientUserId(owner: BankOwner): string {
  return owner.kind === "user" ? owner.userId : `signer:${owner.signerId}`;
}

/** The owner's columns on a new bank item. */
export function bankOwnerColumns(owner: BankOwner): { userId: string | null; signerId: string | null } {
  return owner.kind === "user" ? { userId: owner.userId, signerId: null } : { userId: owner.userId, signerId: owner.signerId };
}

/** For log lines: which owner, by id only. */
export function bankOwnerLogFields(owner: BankOwner): { userId?: string; signerId?: string } {
  return owner.kind === "user" ? { userId: owner.userId } : { signerId: owner.signerId };
}
