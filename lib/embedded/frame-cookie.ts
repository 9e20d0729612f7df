import { createHmac, timingSafeEqual } from "node:crypto";
import { getAuthSecret } from "@/lib/env";

/**
 * The embedded frame's cookie: which package this browser partition opened through an embedded
 * signing URL, and the origins allowed to frame its pages, sealed with an HMAC under the auth secret.
 * The proxy reads it (without a database) to send `frame-ancestors <origins>` on that package's
 * signer pages and on the refusal page; it grants nothing else (the signer session cookie does).
 * Set `SameSite=None; Secure; Partitioned`: inside a cross-site iframe it lives in the parent
 * site's partition only, never in the signer's own top-level browsing.
 */
export type FrameGrant = { packageId: string | null; origins: string[]; expiresAt: number };

export function frameCookieName(secureApp: boolean): string {
  return `${secureApp ? "__Host-" : ""}csk-embed-frame`;
}

/** The request header the proxy sets (and strips from clients) for pages rendered inside an allowed frame. */
export const EMBED_ORIGINS_HEADER = "x-embed-origins";

function mac(payload: string): string {
  return createHmac("sha256", getAuthSecret()).update(`embed-frame:${payload}`).digest("base64url");
}

export function sealFrameGrant(grant: FrameGrant): string {
  const payload = Buffer.from(JSON.stringify({ p: grant.packageId, o: grant.origins, e: grant.expiresAt }), "utf8").toString("base64url");
  return `${payload}.${mac(payload)}`;
}

export function openFrameGrant(value: string | undefined, now = Date.now()): FrameGrant | null {
  if (!value || value.length > 4000) return null;
  const [payload, signature, extra] = value.split(".");
  if (!payload || !signature || extra !== undefined) return null;
  const expected = Buffer.from(mac(payload));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  try {
    const parsed = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as { p: unknown; o: unknown; e: unknown };
    if (typeof parsed.e !== "number" || parsed.e <= now) return null;
    if (!Array.isArray(parsed.o) || !parsed.o.every((o) => typeof o === "string" && /^https?:\/\/[^\s/;,'"]+$/.test(o))) return null;
    if (parsed.p !== null && typeof parsed.p !== "string") return null;
    return { packageId: parsed.p, origins: parsed.o as string[], expiresAt: parsed.e };
  } catch {
    return null;
  }
}

/** The signer's pages of a package (not the manager's `edit`, `fields`, `in-person`…). */
const PACKAGE_PAGE = /^\/signings\/([0-9a-f-]{36})(?:\/(?:done|bank|documents(?:\/[^?#]*)?|sealed(?:\/[^?#]*)?))?\/?$/i;

/**
 * The origins that may frame `pathname` for the grant in this request's cookie: the granted
 * package's signer pages (`/signings/<id>` and below), and the refusal page `/embed/refused`. Null
 * otherwise: every other page keeps `frame-ancestors 'none'`.
 */
export function frameAncestorsFor(pathname: string, grant: FrameGrant | null): string[] | null {
  if (!grant || grant.origins.length === 0) return null;
  if (pathname === "/embed/refused") return grant.origins;
  const match = PACKAGE_PAGE.exec(pathname);
  if (match && grant.packageId !== null && match[1]!.toLowerCase() === grant.packageId.toLowerCase()) return grant.origins;
  return null;
}
