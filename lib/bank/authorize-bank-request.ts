import type { Db } from "@/db/client";
import { Unauthorized } from "@/lib/errors";
import { assertSameOrigin } from "./assert-same-origin";
import { getSessionUser, type SessionUser } from "./get-session-user";
import { getPlaidClient } from "./plaid-client";

export type AuthorizeBankRequestOptions = { request: Request };

/**
 * The checks every `/api/bank/*` request passes, in order: a signed-in session (401), same origin for
 * POSTs (403), bank linking configured (503).
 */
export async function authorizeBankRequest(db: Db, options: AuthorizeBankRequestOptions): Promise<SessionUser> {
  const user = await getSessionUser(db, options);
  if (!user) throw Unauthorized("Sign in to link a bank account.");
  if (options.request.method !== "GET" && options.request.method !== "HEAD") assertSameOrigin(options.request);
  getPlaidClient();
  return user;
}
