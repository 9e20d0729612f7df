import type { Context } from "hono";

type NodeBindings = { incoming?: { socket?: { remoteAddress?: string } } };

/**
 * The caller's address for audit evidence: the first X-Forwarded-For hop set by the proxy in front of
 * us, else the socket peer when running on the standalone Node server.
 */
export function clientIp(c: Context): string | null {
  const forwarded = c.req.header("x-forwarded-for")?.split(",")[0]?.trim();
  if (forwarded) return forwarded.slice(0, 64);
  const real = c.req.header("x-real-ip")?.trim();
  if (real) return real.slice(0, 64);
  return (c.env as NodeBindings | undefined)?.incoming?.socket?.remoteAddress ?? null;
}
