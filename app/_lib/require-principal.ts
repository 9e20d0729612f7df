import { cache } from "react";
import { redirect } from "next/navigation";
import { connection } from "next/server";
import type { Db } from "@/db/client";
import { getSessionPrincipal } from "@/lib/sign-in/get-session-principal";
import type { Principal } from "@/lib/auth/principal";
import { prepareDatabase } from "@/lib/boot";
import { linkHolderPrincipal } from "@/lib/next/link-sessions";

export { safeReturnPath } from "@/lib/auth/safe-return-path";

/**
 * The database and the signed-in principal, or null. Cached per request (layout and page share it).
 * `connection()` first: a page behind a session is per request, so `next build` stops prerendering it
 * here instead of opening (and migrating, seeding) a database and creating an auth secret.
 */
export const getPagePrincipal = cache(async (): Promise<{ db: Db; principal: Principal | null }> => {
  await connection();
  const { db } = await prepareDatabase();
  return { db, principal: await getSessionPrincipal(db) };
});

/**
 * For pages behind sign-in: the principal, or a redirect to /sign-in that comes back to `returnTo`.
 * A signer's page or action of a package names that package (`signerOf`, from its route params or its
 * form, never parsed back out of a path): that package's signer session from an emailed link then
 * counts (lib/link-holders): a proven one is the principal, one still to be proven goes to the proof
 * page. Every other page takes the signed-in account only.
 */
export async function requirePrincipal(returnTo: string, options: { signerOf?: string } = {}): Promise<{ db: Db; principal: Principal }> {
  const packageId = options.signerOf?.toLowerCase();
  if (packageId) {
    const signer = await getPageSignerPrincipal(packageId);
    if (signer === "unproven") redirect(`/access/verify/${packageId}`);
    if (signer) return signer;
  }
  const { db, principal } = await getPagePrincipal();
  if (!principal) redirect(`/sign-in?callbackUrl=${encodeURIComponent(returnTo)}`);
  return { db, principal };
}

/** The package's signer session as a principal, "unproven" when its proof step is still to pass, or null. Cached per request. */
const getPageSignerPrincipal = cache(async (packageId: string): Promise<{ db: Db; principal: Principal } | "unproven" | null> => {
  await connection();
  const { db } = await prepareDatabase();
  const principal = await linkHolderPrincipal(db, "signer", packageId);
  if (!principal || principal === "unproven") return principal;
  return { db, principal };
});
