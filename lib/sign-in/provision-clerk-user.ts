import type { Db } from "@/db/client";
import { getEnv } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { ClerkUserSchema, type ClerkUser } from "@/lib/identity/clerk-events";
import { syncClerkUser } from "@/lib/identity/sync-clerk-user";
import { log } from "@/lib/log";

export type ProvisionClerkUserOptions = {
  userId: string;
  /** The verified session token's claims; see `clerkUserFromClaims`. */
  claims: Record<string, unknown>;
};

/**
 * Creates (or links to an invited row, by verified email) the user behind a Clerk session whose
 * subject is not in `users` yet: someone who signed in before the identity webhook arrived. It runs
 * the webhook's own `syncClerkUser`, so the first request and the later webhook agree. The profile
 * comes from the session token when the instance's session token template carries it
 * (docs/identity.md), otherwise from one Backend API call with CLERK_SECRET_KEY. Returns false when
 * the user cannot be provisioned (e.g. their email belongs to another user); they stay signed out.
 */
export async function provisionClerkUser(db: Db, options: ProvisionClerkUserOptions): Promise<boolean> {
  try {
    const user = clerkUserFromClaims(options.userId, options.claims) ?? (await fetchClerkUser(options.userId));
    await db.transaction((tx) => syncClerkUser(tx, { user }));
    return true;
  } catch (error) {
    if (error instanceof AppError && error.status < 500) {
      log.warn("clerk user not provisioned", { clerkUserId: options.userId, reason: error.message });
      return false;
    }
    throw error;
  }
}

/**
 * The profile from custom session claims `email`, `email_verified`, `first_name`, `last_name`
 * (Clerk dashboard → Sessions → Customize session token), or null when `email` is absent.
 */
export function clerkUserFromClaims(userId: string, claims: Record<string, unknown>): ClerkUser | null {
  const email = typeof claims.email === "string" && claims.email.trim() !== "" ? claims.email.trim() : undefined;
  if (!email) return null;
  const verified = claims.email_verified === true || claims.email_verified === "true";
  return {
    id: userId,
    email_addresses: [{ id: "session-claims", email_address: email, verification: { status: verified ? "verified" : "unverified" } }],
    primary_email_address_id: "session-claims",
    first_name: typeof claims.first_name === "string" ? claims.first_name : null,
    last_name: typeof claims.last_name === "string" ? claims.last_name : null,
  };
}

async function fetchClerkUser(userId: string): Promise<ClerkUser> {
  const env = getEnv();
  if (!env.CLERK_SECRET_KEY) throw new Error("CLERK_SECRET_KEY is required to read a new Clerk user's profile");
  const url = new URL(`/v1/users/${encodeURIComponent(userId)}`, env.CLERK_API_URL);
  const response = await fetch(url, {
    headers: { Authorization: `Bearer ${env.CLERK_SECRET_KEY}` },
    signal: AbortSignal.timeout(5_000),
  });
  if (!response.ok) throw new Error(`Clerk Backend API answered ${response.status} for a user`);
  return ClerkUserSchema.parse(await response.json());
}
