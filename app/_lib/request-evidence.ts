import { headers } from "next/headers";
import { clientIpFromRequest } from "@/lib/net/client-ip";

export type RequestEvidence = { ipAddress: string | null; userAgent: string | null };

/**
 * The evidence a server action records with a signer's act: the client IP by the same rule as
 * /v1 (lib/net/client-ip.ts) and the browser's user agent, capped like the API caps it.
 */
export async function requestEvidence(): Promise<RequestEvidence> {
  const requestHeaders = await headers();
  return {
    ipAddress: clientIpFromRequest(requestHeaders),
    userAgent: requestHeaders.get("user-agent")?.slice(0, 512) ?? null,
  };
}
