import { cache } from "react";
import { redirect } from "next/navigation";
import { connection } from "next/server";
import type { Db } from "@/db/client";
import { getSessionPrincipal } from "@/lib/auth/get-session-principal";
import type { Principal } from "@/lib/auth/principal";
import { prepareDatabase } from "@/lib/boot";

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

/** For pages behind sign-in: the principal, or a redirect to /sign-in that comes back to `returnTo`. */
export async function requirePrincipal(returnTo: string): Promise<{ db: Db; principal: Principal }> {
  const { db, principal } = await getPagePrincipal();
  if (!principal) redirect(`/sign-in?callbackUrl=${encodeURIComponent(returnTo)}`);
  return { db, principal };
}
