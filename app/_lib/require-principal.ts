import { cache } from "react";
import { redirect } from "next/navigation";
import { connection } from "next/server";
import type { Db } from "@/db/client";
import { getSessionPrincipal } from "@/lib/auth/get-session-principal";
import type { Principal } from "@/lib/auth/principal";
import { prepareDatabase } from "@/lib/boot";
import { currentSignerSession } from "@/lib/signer-access/session-cookie";
import { signerSessionPrincipal } from "@/lib/signer-access/signer-session-principal";

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
 * A signer's package page (`returnTo` under `/signings/<id>`, not the manager's `view=manage` nor
 * the manager's pages under that prefix) also
 * takes that package's signer session from an emailed link: a proven one is the principal, one
 * still to be proven goes to the proof page.
 */
export async function requirePrincipal(returnTo: string): Promise<{ db: Db; principal: Principal }> {
  const packageId = signerPackageOf(returnTo);
  if (packageId) {
    const signer = await getPageSignerPrincipal(packageId);
    if (signer === "unproven") redirect(`/access/verify/${packageId}`);
    if (signer) return signer;
  }
  const { db, principal } = await getPagePrincipal();
  if (!principal) redirect(`/sign-in?callbackUrl=${encodeURIComponent(returnTo)}`);
  return { db, principal };
}

/**
 * A signer's pages of a package: `/signings/<id>` and its signer sub-pages, never the manager's pages
 * under the same prefix (`closing`, `edit`, `fields`, `in-person`): a signer's link session there is no principal,
 * and those pages send it to sign-in instead of failing on a principal they cannot serve.
 */
const SIGNER_PATH = /^\/signings\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})(?!\/(?:closing|edit|fields|in-person)(?:[/?#]|$))(?:[/?#]|$)/i;

function signerPackageOf(returnTo: string): string | null {
  const match = SIGNER_PATH.exec(returnTo);
  if (!match || /[?&]view=manage(?:&|$)/.test(returnTo)) return null;
  return match[1]!.toLowerCase();
}

/** The package's signer session as a principal, "unproven" when its proof step is still to pass, or null. Cached per request. */
const getPageSignerPrincipal = cache(async (packageId: string): Promise<{ db: Db; principal: Principal } | "unproven" | null> => {
  await connection();
  const { db } = await prepareDatabase();
  const context = await currentSignerSession(db, packageId);
  if (!context) return null;
  if (!context.session.authPassedAt) return "unproven";
  return { db, principal: signerSessionPrincipal(context) };
});
