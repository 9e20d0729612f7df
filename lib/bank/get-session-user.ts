import { and, eq } from "drizzle-orm";
import { getToken } from "next-auth/jwt";
import type { Db } from "@/db/client";
import { users } from "@/db/schema";
import { authOptions } from "@/lib/auth/next-auth";
import { getAuthSecret } from "@/lib/env";
import { isUuid } from "@/lib/ids";

export type SessionUser = { id: string; email: string; name: string };

export type GetSessionUserOptions = { request: Request };

/**
 * The signed-in user behind the request's next-auth session cookie, or null. The cookie is read from
 * the request itself (not through `next/headers`), so the `/api/bank/*` handlers work, and are tested,
 * as plain `Request → Response` functions. next-auth decrypts and checks the cookie exactly as
 * `getServerSession(authOptions)` would; the user must still exist and be active.
 */
export async function getSessionUser(db: Db, options: GetSessionUserOptions): Promise<SessionUser | null> {
  const cookies = parseCookies(options.request.headers.get("cookie") ?? "");
  const token = await getToken({
    // Only the cookie: next-auth would also accept the session JWT as a Bearer header.
    req: { cookies, headers: {} } as unknown as Parameters<typeof getToken>[0]["req"],
    secret: getAuthSecret(),
    secureCookie: authOptions.useSecureCookies ?? false,
    logger: { error: () => {}, warn: () => {}, debug: () => {} } as unknown as Console,
  });
  const userId = token?.sub;
  if (!userId || !isUuid(userId)) return null;
  const [user] = await db
    .select({ id: users.id, email: users.email, name: users.name })
    .from(users)
    .where(and(eq(users.id, userId), eq(users.isActive, true)))
    .limit(1);
  return user ?? null;
}

function parseCookies(header: string): Record<string, string> {
  const cookies: Record<string, string> = {};
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq <= 0) continue;
    const name = part.slice(0, eq).trim();
    try {
      cookies[name] = decodeURIComponent(part.slice(eq + 1).trim());
    } catch {
      // A malformed cookie is not ours; skip it.
    }
  }
  return cookies;
}
