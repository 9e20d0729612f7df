import type { AuthOptions } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import { z } from "zod";
import { prepareDatabase } from "@/lib/boot";
import { getAuthSecret, getEnv } from "@/lib/env";
import { log } from "@/lib/log";
import { signInWithPassword } from "./sign-in-with-password";

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

const SESSION_MAX_AGE_SECONDS = 8 * 60 * 60;

/**
 * next-auth (v4) for browser sign-in with the local identity provider: email and password, JWT
 * session cookie carrying the user id. The sign-in page calls `signIn(..., { redirect: false })`
 * and navigates itself, so next-auth's own redirect URLs (which would need NEXTAUTH_URL) are never
 * followed; the cookie's Secure flag is derived from APP_URL instead.
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
      async authorize(credentials) {
        const parsed = CredentialsSchema.safeParse(credentials);
        if (!parsed.success) return null;
        const { db } = await prepareDatabase();
        return signInWithPassword(db, parsed.data);
      },
    }),
  ],
  callbacks: {
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
