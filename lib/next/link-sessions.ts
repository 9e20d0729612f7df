import { cookies } from "next/headers";
import type { Db } from "@/db/client";
import type { Principal } from "@/lib/auth/principal";
import { getEnv } from "@/lib/env";
import { LINK_HOLDERS, type LinkHolderKind, type LinkSession } from "@/lib/link-holders/link-holders";

/**
 * The cookies of link holders (lib/link-holders): the one place that writes, reads and removes them.
 * httpOnly, SameSite=Lax, `Secure` and `__Host-` prefixed on https, one per package and kind, never
 * outliving the session. (The embedded entry point sets its own `SameSite=None; Partitioned` copy:
 * app/embed/[token]/route.ts.)
 */
function secureApp(): boolean {
  return new URL(getEnv().APP_URL).protocol === "https:";
}

/** Sets a link holder's session cookie for one package; `expiresAt` shortens it below the kind's longest life. */
export async function setLinkSessionCookie(kind: LinkHolderKind, packageId: string, value: string, expiresAt?: Date): Promise<void> {
  const secure = secureApp();
  const holder = LINK_HOLDERS[kind];
  const lifeMs = expiresAt ? Math.min(holder.maxAgeMs, expiresAt.getTime() - Date.now()) : holder.maxAgeMs;
  (await cookies()).set(holder.cookieName(packageId, secure), value, {
    httpOnly: true,
    sameSite: "lax",
    secure,
    path: "/",
    maxAge: Math.max(0, Math.floor(lifeMs / 1000)),
  });
}

/** Removes a link holder's session cookie for one package from this browser (the caller ends the session row). */
export async function clearLinkSessionCookie(kind: LinkHolderKind, packageId: string): Promise<void> {
  (await cookies()).delete(LINK_HOLDERS[kind].cookieName(packageId, secureApp()));
}

/** The cookie's value, from `request` when given (a route handler), from `next/headers` otherwise. */
async function readLinkSessionValue(kind: LinkHolderKind, packageId: string, request?: Request): Promise<string | undefined> {
  const name = LINK_HOLDERS[kind].cookieName(packageId, secureApp());
  if (!request) return (await cookies()).get(name)?.value;
  for (const part of (request.headers.get("cookie") ?? "").split(";")) {
    const [key, ...rest] = part.trim().split("=");
    if (key === name) return decodeURIComponent(rest.join("="));
  }
  return undefined;
}

/** The live session of a link holder of this kind for this package behind this request's cookie, or null. */
export async function currentLinkSession<K extends LinkHolderKind>(db: Db, kind: K, packageId: string, request?: Request): Promise<LinkSession<K> | null> {
  const value = await readLinkSessionValue(kind, packageId, request);
  // Each kind's `session` takes the same options; the union of their signatures is not callable as one.
  const session = LINK_HOLDERS[kind].session as (db: Db, options: { packageId: string; value: string | undefined }) => Promise<LinkSession<K> | null>;
  return session(db, { packageId, value });
}

/** The principal of this request's link session of this kind for this package, "unproven" before its proof step, or null. */
export async function linkHolderPrincipal(db: Db, kind: LinkHolderKind, packageId: string, request?: Request): Promise<Principal | "unproven" | null> {
  const context = await currentLinkSession(db, kind, packageId, request);
  if (!context) return null;
  const principal = LINK_HOLDERS[kind].principal as (context: LinkSession<typeof kind>) => Principal | "unproven";
  return principal(context);
}

/** The principal of this request's proven link session of this kind for this package, or null (none, or its proof step still to pass). */
export async function provenLinkHolder(db: Db, kind: LinkHolderKind, packageId: string, request?: Request): Promise<Principal | null> {
  const principal = await linkHolderPrincipal(db, kind, packageId, request);
  return principal === "unproven" ? null : principal;
}
