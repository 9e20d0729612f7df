import type { AuthOptions } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import { z } from "zod";
import { prepareDatabase } from "@/lib/boot";
import { getAuthSecret, getEnv } from "@/lib/env";
import { log } from "@/lib/log";
import { requestClientIp } from "@/lib/auth/request-client-ip";
import { safeReturnPath } from "@/lib/auth/safe-return-path";
import { signInWithPasswordThrottled } from "./sign-in-with-password-throttled";

declare module "next-auth" {
  // Module augmentation needs an interface.
  interface Session {
    user: { id: string; name: string; email: string };
  }
}

const CredentialsSchema = z.object({
  email: z.string().trim().min(3).max(320),
  password: z.string().min(1).max(1024),
});

export const SESSION_MAX_AGE_SECONDS = 8 * 60 * 60;

/**
 * next-auth (v4) for browser sessions with the local identity provider: a JWT session cookie carrying
 * the user id, read by `getServerSession`. The sign-in page is a server action that checks the
 * password and sets this cookie itself (`createSessionCookie`), so it works without JavaScript; the
 * credentials callback stays for `signIn()` after accepting an invitation, behind the same throttle
 * (its 429 is answered by the route, `refuseThrottledCredentialsCallback`). next-auth's own redirect
 * URLs (which would need NEXTAUTH_URL) are never followed; the cookie's Secure flag comes from APP_URL.
 */
export const authOptions: AuthOptions = {
  // Getters: importing this module (e.g. while `next build` collects routes) must not create a secret.
  get secret() {
    return getAuthSecret();
  },
  get useSecureCookies() {
    return new URL(getEnv().APP_URL).protocol === "https:";
  },
  session: { strategy: "jwt", maxAge: SESSION_MAX_AGE_SECONDS },
  pages: { signIn: "/sign-in", signOut: "/sign-out", error: "/sign-in" },
  providers: [
    CredentialsProvider({
      id: "credentials",
      name: "Email and password",
      credentials: {
        email: { label: "Email", type: "email" },
        password: { label: "Password", type: "password" },
      },
      async authorize(credentials, req) {
        const parsed = CredentialsSchema.safeParse(credentials);
        if (!parsed.success) return null;
        const { db } = await prepareDatabase();
        // The same client address the route's 429 check used: next-auth hands over the request's
        // headers as a plain object, and the socket peer travels in one of them (lib/net/peer-address.ts).
        // Copying only X-Forwarded-For lost it, so every failure counted against "unknown" while the
        // route checked the real address, and a client trying many accounts was never refused.
        const result = await signInWithPasswordThrottled(db, { ...parsed.data, clientIp: requestClientIp(headersOf(req.headers)) });
        return result.status === "signed-in" ? result.user : null;
      },
    }),
  ],
  callbacks: {
    // next-auth's default parses `callbackUrl` with `new URL()` (a 500 for `\/\/evil.example`) and
    // keeps anything starting with `/` (a newline in it breaks the Set-Cookie header: another 500).
    // Only a same-origin path, read the way a browser reads it, is ever followed.
    // next-auth's baseUrl is NEXTAUTH_URL or http://localhost:3000 (NEXTAUTH_URL is deliberately
    // unset), so the site is APP_URL's origin.
    redirect({ url, baseUrl }) {
      const site = new URL(getEnv().APP_URL).origin;
      let path = url;
      try {
        const parsed = new URL(url);
        if (parsed.origin === site || parsed.origin === new URL(baseUrl).origin) path = `${parsed.pathname}${parsed.search}${parsed.hash}`;
      } catch {
        // Not absolute: a path, judged below.
      }
      return `${site}${safeReturnPath(path)}`;
    },
    jwt({ token, user }) {
      if (user) token.sub = user.id;
      return token;
    },
    session({ session, token }) {
      session.user = { id: token.sub ?? "", name: token.name ?? "", email: token.email ?? "" };
      return session;
    },
  },
  logger: {
    error: (code, metadata) => log.error(`next-auth: ${code}`, { metadata }),
    // NEXTAUTH_URL is deliberately unset (see above); its start-up warning is noise.
    warn: (code) => (code === "NEXTAUTH_URL" ? log.debug(`next-auth: ${code}`) : log.warn(`next-auth: ${code}`)),
    debug: (code) => log.debug(`next-auth: ${code}`),
  },
};

/** next-auth's internal request headers (a plain object, values possibly arrays) as `Headers`. */
function headersOf(plain: Record<string, unknown> | undefined): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(plain ?? {})) {
    if (typeof value === "string") headers.set(name, value);
    else if (Array.isArray(value)) headers.set(name, value.filter((v) => typeof v === "string").join(", "));
  }
  return headers;
}
