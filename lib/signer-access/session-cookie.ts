import { cookies } from "next/headers";
import type { Db } from "@/db/client";
import { getEnv } from "@/lib/env";
import { getSignerSession, type SignerSessionContext } from "./get-signer-session";
import { SIGNER_SESSION_MAX_MS, signerSessionCookieName } from "./rules";

function secureApp(): boolean {
  return new URL(getEnv().APP_URL).protocol === "https:";
}

/**
 * Sets a package's signer session cookie: httpOnly, SameSite=Lax, `Secure` and `__Host-` prefixed on
 * https, one cookie per package (its name carries the package id), gone after 12 hours.
 */
export async function setSignerSessionCookie(packageId: string, value: string): Promise<void> {
  const secure = secureApp();
  (await cookies()).set(signerSessionCookieName(packageId, secure), value, {
    httpOnly: true,
    sameSite: "lax",
    secure,
    path: "/",
    maxAge: Math.floor(SIGNER_SESSION_MAX_MS / 1000),
  });
}

/** The package's signer session cookie value, from the request's cookies (a `Request` for route handlers). */
export async function readSignerSessionValue(packageId: string, request?: Request): Promise<string | undefined> {
  const name = signerSessionCookieName(packageId, secureApp());
  if (request) {
    const header = request.headers.get("cookie") ?? "";
    for (const part of header.split(";")) {
      const [key, ...rest] = part.trim().split("=");
      if (key === name) return decodeURIComponent(rest.join("="));
    }
    return undefined;
  }
  return (await cookies()).get(name)?.value;
}

/** The live signer session for this package behind this request's cookie, or null. */
export async function currentSignerSession(db: Db, packageId: string, request?: Request): Promise<SignerSessionContext | null> {
  return getSignerSession(db, { packageId, value: await readSignerSessionValue(packageId, request) });
}

/** Removes a package's signer session cookie from this browser (the session row is ended by the caller). */
export async function clearSignerSessionCookie(packageId: string): Promise<void> {
  (await cookies()).delete(signerSessionCookieName(packageId, secureApp()));
}
