import { getToken } from "next-auth/jwt";
import { getAuthSecret } from "@/lib/env";
import { authOptions } from "./next-auth";

/**
 * The user id in the request's next-auth session cookie, or null. next-auth decrypts and checks the
 * cookie exactly as `getServerSession(authOptions)` would, but reads it from the request itself.
 */
export async function getLocalSessionUserId(request: Request): Promise<string | null> {
  const token = await getToken({
    // Only the cookie: next-auth would also accept the session JWT as a Bearer header.
    req: { cookies: parseCookies(request.headers.get("cookie") ?? ""), headers: {} } as unknown as Parameters<typeof getToken>[0]["req"],
    secret: getAuthSecret(),
    secureCookie: authOptions.useSecureCookies ?? false,
    logger: { error: () => {}, warn: () => {}, debug: () => {} } as unknown as Console,
  });
  return token?.sub ?? null;
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
