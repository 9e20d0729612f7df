import { encode } from "next-auth/jwt";
import { getAuthSecret } from "@/lib/env";
import { authOptions, SESSION_MAX_AGE_SECONDS } from "./next-auth";
import type { SignedInUser } from "./sign-in-with-password";

export type SessionCookie = {
  name: string;
  value: string;
  options: { httpOnly: true; sameSite: "lax"; path: "/"; secure: boolean; maxAge: number };
};

/**
 * The session cookie next-auth's credentials callback would set for this user — same name, same
 * encrypted JWT (`sub` = user id), same flags — so a server action can sign a person in without
 * JavaScript and `getServerSession(authOptions)` reads it as its own.
 */
export async function createSessionCookie(options: { user: SignedInUser }): Promise<SessionCookie> {
  const secure = authOptions.useSecureCookies ?? false;
  const value = await encode({
    token: { sub: options.user.id, name: options.user.name, email: options.user.email },
    secret: getAuthSecret(),
    maxAge: SESSION_MAX_AGE_SECONDS,
  });
  return {
    name: `${secure ? "__Secure-" : ""}next-auth.session-token`,
    value,
    options: { httpOnly: true, sameSite: "lax", path: "/", secure, maxAge: SESSION_MAX_AGE_SECONDS },
  };
}
