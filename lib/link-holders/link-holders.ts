import type { Db } from "@/db/client";
import type { Principal } from "@/lib/auth/principal";
import { agentSessionPrincipal } from "@/lib/auth/agent-session-principal";
import { getAgentSession, type AgentSessionContext } from "@/lib/settlement-agent/get-agent-session";
import { AGENT_SESSION_MAX_MS, agentSessionCookieName } from "@/lib/settlement-agent/rules";
import { getSignerSession, type SignerSessionContext } from "@/lib/signer-access/get-signer-session";
import { SIGNER_SESSION_MAX_MS, signerSessionCookieName } from "@/lib/signer-access/rules";
import { signerSessionPrincipal } from "@/lib/signer-access/signer-session-principal";

/**
 * What the service knows of one kind of link holder: someone without an account who opened an
 * emailed link for one package and holds a session for that package only.
 * - `cookieName`: one cookie per package (its name carries the package id), `__Host-` on https;
 * - `maxAgeMs`: the session's longest life, which the cookie does not outlive;
 * - `session`: the live session behind a cookie value for that package, or null;
 * - `principal`: the narrow principal the session stands for, or "unproven" while the holder still
 *   has a proof step to pass (the emailed code, the access code…).
 * The web layer (lib/next/link-sessions.ts) reads and writes the cookies; nothing here touches HTTP.
 */
type LinkHolder<C> = {
  cookieName(packageId: string, secure: boolean): string;
  maxAgeMs: number;
  session(db: Db, options: { packageId: string; value: string | undefined | null }): Promise<C | null>;
  principal(context: C): Principal | "unproven";
};

const signer: LinkHolder<SignerSessionContext> = {
  cookieName: signerSessionCookieName,
  maxAgeMs: SIGNER_SESSION_MAX_MS,
  session: getSignerSession,
  principal: (context) => (context.session.authPassedAt ? signerSessionPrincipal(context) : "unproven"),
};

const agent: LinkHolder<AgentSessionContext> = {
  cookieName: agentSessionCookieName,
  maxAgeMs: AGENT_SESSION_MAX_MS,
  session: getAgentSession,
  principal: (context) => agentSessionPrincipal(context.link),
};

/** Every kind of link holder: a package's signer (lib/signer-access) and its settlement agent (lib/settlement-agent). */
export const LINK_HOLDERS = { signer, agent };

export type LinkHolderKind = keyof typeof LINK_HOLDERS;

/** The live session of a link holder of that kind. */
export type LinkSession<K extends LinkHolderKind> = NonNullable<Awaited<ReturnType<(typeof LINK_HOLDERS)[K]["session"]>>>;
