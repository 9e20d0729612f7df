import type { Context } from "hono";
import { clientIpFromRequest } from "@/lib/net/client-ip";

type NodeBindings = { incoming?: { socket?: { remoteAddress?: string } } };

/** The caller's evidence IP: the standalone server's socket peer, or what Next's hook recorded. */
export function clientIp(c: Context): string | null {
  return clientIpFromRequest(c.req.raw.headers, (c.env as NodeBindings | undefined)?.incoming?.socket?.remoteAddress);
}
