import { headers } from "next/headers";

/**
 * The caller's address for audit evidence in server actions and pages: the first X-Forwarded-For
 * hop set by the proxy in front of us, else X-Real-IP. Next does not expose the socket peer here.
 */
export async function requestClientIp(): Promise<string | null> {
  const list = await headers();
  const forwarded = list.get("x-forwarded-for")?.split(",")[0]?.trim();
  if (forwarded) return forwarded.slice(0, 64);
  return list.get("x-real-ip")?.trim().slice(0, 64) || null;
}
