import type { Db } from "@/db/client";
import { passwordSignInRules, tooManyAttemptsMessage } from "./auth-throttle-rules";
import { checkAuthThrottle } from "./check-auth-throttle";
import { requestClientIp } from "./request-client-ip";

/**
 * For next-auth's `POST /api/auth/callback/credentials`: a 429 with Retry-After when the account
 * or the client is locked out, else null (next-auth handles the request; its `authorize` counts the
 * failure). next-auth itself can only answer a refused `authorize` with a redirect, so the lockout is
 * answered here, before it runs. The body is read from a clone; next-auth still reads the original.
 */
export async function refuseThrottledCredentialsCallback(db: Db, options: { request: Request }): Promise<Response | null> {
  const { request } = options;
  if (!new URL(request.url).pathname.endsWith("/callback/credentials")) return null;
  let email = "";
  try {
    const form = await request.clone().formData();
    const value = form.get("email");
    if (typeof value === "string") email = value;
  } catch {
    return null;
  }
  const rules = passwordSignInRules({ email, clientIp: requestClientIp(request.headers) });
  const state = await checkAuthThrottle(db, { rules });
  if (!state.refused) return null;
  return Response.json(
    { error: tooManyAttemptsMessage(state.retryAfterSeconds) },
    { status: 429, headers: { "Retry-After": String(state.retryAfterSeconds), "Cache-Control": "no-store" } },
  );
}
