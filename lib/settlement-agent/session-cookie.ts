import { cookies } from "next/headers";
import type { Db } from "@/db/client";
import type { Principal } from "@/lib/auth/principal";
import { getEnv } from "@/lib/env";
import { agentSessionPrincipal } from "./agent-session-principal";
import { getAgentSession } from "./get-agent-session";
import { AGENT_SESSION_MAX_MS, agentSessionCookieName } from "./rules";

function secureApp(): boolean {
  return new URL(getEnv().APP_URL).protocol === "https:";
}

/**
 * Sets a package's agent session cookie: httpOnly, SameSite=Lax, `Secure` and `__Host-` prefixed on
 * https, one per package (its name carries the package id), gone by the session's end.
 */
export async function setAgentSessionCookie(packageId: string, value: string, expiresAt: Date): Promise<void> {
  const secure = secureApp();
  (await cookies()).set(agentSessionCookieName(packageId, secure), value, {
    httpOnly: true,
    sameSite: "lax",
    secure,
    path: "/",
    maxAge: Math.max(0, Math.floor(Math.min(AGENT_SESSION_MAX_MS, expiresAt.getTime() - Date.now()) / 1000)),
  });
}

async function readAgentSessionValue(packageId: string, request?: Request): Promise<string | undefined> {
  const name = agentSessionCookieName(packageId, secureApp());
  if (request) {
    for (const part of (request.headers.get("cookie") ?? "").split(";")) {
      const [key, ...rest] = part.trim().split("=");
      if (key === name) return decodeURIComponent(rest.join("="));
    }
    return undefined;
  }
  return (await cookies()).get(name)?.value;
}

/** The settlement agent principal of this package behind the request's cookie (a `Request` for route handlers), or null. */
export async function currentAgentPrincipal(db: Db, packageId: string, request?: Request): Promise<Principal | null> {
  const context = await getAgentSession(db, { packageId, value: await readAgentSessionValue(packageId, request) });
  return context ? agentSessionPrincipal(context.link) : null;
}
