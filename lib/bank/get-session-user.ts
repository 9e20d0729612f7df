import type { Db } from "@/db/client";
import { getSessionPrincipal } from "@/lib/auth/get-session-principal";

export type SessionUser = { id: string; email: string; name: string };

export type GetSessionUserOptions = { request: Request };

/**
 * The signed-in user behind the request's browser session (either identity provider), or null.
 * The request is passed on so the `/api/bank/*` handlers still run as plain `Request → Response`
 * functions with the local provider.
 */
export async function getSessionUser(db: Db, options: GetSessionUserOptions): Promise<SessionUser | null> {
  const principal = await getSessionPrincipal(db, { request: options.request });
  return principal ? { id: principal.user.id, email: principal.user.email, name: principal.user.name } : null;
}
