import { headers } from "next/headers";
import { clientIpFromRequest } from "@/lib/net/client-ip";

/**
 * The caller's evidence IP in server actions and pages: the socket peer that instrumentation's hook
 * recorded, unless TRUSTED_PROXY_HOPS trusts X-Forwarded-For entries (lib/net/client-ip.ts).
 */
export async function requestClientIp(): Promise<string | null> {
  return clientIpFromRequest(await headers());
}
