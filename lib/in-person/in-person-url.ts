import { and, eq, isNull } from "drizzle-orm";
import type { Db } from "@/db/client";
import { inPersonSigningTokens, packageSigners, signingPackages, users } from "@/db/schema";
import { recordAuditEntry } from "@/lib/audit/record-audit-entry";
import { hasCapability, resolvePrincipal, type Principal } from "@/lib/auth/principal";
import { AppError } from "@/lib/errors";
import { getSigningOrThrow } from "@/lib/packages/get-signing-or-throw";
import { getEnv } from "@/lib/env";
import { OPEN_SIGNING_STATUSES } from "@/lib/packages/state-machine";
import { isOpaqueTokenShape, newOpaqueToken, sha256Hex } from "@/lib/security/secrets";
import type { Identification } from "./identification";
import { hostableSigner, openHostedSession } from "./start-in-person-signing";

/** How long an in-person signing URL can be opened after it is issued. */
export const IN_PERSON_URL_TTL_MS = 5 * 60_000;

export type IssuedInPersonUrl = { token: string; expiresAt: Date };

/**
 * For an integrator's own desk app (`/v1`): the host (the API key's user) has checked the signer's
 * identification and asks for a URL to open on the device at the desk. Same rules as the console's
 * hand-over (`hostableSigner`: 404 outside the caller's scope or for another signer, 409 when the
 * package is not open or the signer has finished). The host (id, name, email) and the identification
 * are recorded with the token; only the token's SHA-256 is stored, it opens once, within five minutes.
 * Audited as `signer.in_person_url_issued` (the host is the actor).
 */
export async function issueInPersonUrl(
  db: Db,
  options: { principal: Principal; packageId: string; signerId: string; identification: Identification; ipAddress?: string | null; now?: Date },
): Promise<IssuedInPersonUrl> {
  const now = options.now ?? new Date();
  return db.transaction(async (tx) => {
    const { signing, signer } = await hostableSigner(tx, options);
    const { user } = options.principal;
    const token = newOpaqueToken();
    const expiresAt = new Date(now.getTime() + IN_PERSON_URL_TTL_MS);
    await tx.insert(inPersonSigningTokens).values({
      packageId: signing.id,
      signerId: signer.id,
      tokenHash: sha256Hex(token),
      hostUserId: user.id,
      hostName: user.name,
      hostEmail: user.email,
      ...options.identification,
      expiresAt,
      createdAt: now,
    });
    await recordAuditEntry(tx, {
      organizationId: signing.organizationId,
      packageId: signing.id,
      actorUserId: user.id,
      action: "signer.in_person_url_issued",
      entityType: "package_signer",
      entityId: signer.id,
      ipAddress: options.ipAddress,
      after: { host: { name: user.name, email: user.email }, identification: options.identification, expiresAt: expiresAt.toISOString() },
    });
    return { token, expiresAt };
  });
}

export type InPersonUrlRefusal = { state: "refused"; reason: "unknown" | "used" | "expired" | "closed" | "host" };
export type InPersonUrlOpened = { state: "opened"; packageId: string; sessionValue: string; expiresAt: Date };

/**
 * Opens an in-person signing URL on the device at the desk: marks the token used and starts the
 * in-person session exactly as the console's hand-over does (`openHostedSession`: the
 * `in_person_signings` row, `signer.in_person_started` with the host and the identification recorded
 * at issue, `via: "api"`, and `signer.auth_passed` with method `in_person`). A token used before, past
 * its five minutes, unknown, for a package no longer open (or a signer who has finished), or whose
 * host can no longer host signing for the package (deactivated, or no longer allowed to write it)
 * changes nothing and returns the reason. The token and the package are locked while it opens.
 */
export async function openInPersonUrl(
  db: Db,
  options: { token: string; ipAddress?: string | null; userAgent?: string | null; now?: Date },
): Promise<InPersonUrlOpened | InPersonUrlRefusal> {
  const now = options.now ?? new Date();
  if (!isOpaqueTokenShape(options.token)) return { state: "refused", reason: "unknown" };
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select({ token: inPersonSigningTokens, signing: signingPackages, signer: packageSigners })
      .from(inPersonSigningTokens)
      .innerJoin(signingPackages, eq(signingPackages.id, inPersonSigningTokens.packageId))
      .innerJoin(packageSigners, eq(packageSigners.id, inPersonSigningTokens.signerId))
      .where(eq(inPersonSigningTokens.tokenHash, sha256Hex(options.token)))
      .limit(1)
      .for("update", { of: [inPersonSigningTokens, signingPackages] });
    if (!row) return { state: "refused", reason: "unknown" };
    const { token, signing, signer } = row;
    const refuse = (reason: InPersonUrlRefusal["reason"]): InPersonUrlRefusal => ({ state: "refused", reason });
    if (token.usedAt) return refuse("used");
    if (token.expiresAt <= now) return refuse("expired");
    if (!(OPEN_SIGNING_STATUSES as readonly string[]).includes(signing.status) || (signing.expiresAt && signing.expiresAt <= now)) return refuse("closed");
    if (signer.status === "signed" || signer.status === "declined") return refuse("closed");
    if (!(await hostMayStillHost(tx, token.hostUserId, signing.id))) return refuse("host");

    const started = await openHostedSession(tx, {
      signing,
      signer,
      host: { userId: token.hostUserId, name: token.hostName, email: token.hostEmail },
      identification: { idType: token.idType, idIssuer: token.idIssuer, idLastFour: token.idLastFour },
      via: "api",
      ipAddress: options.ipAddress,
      userAgent: options.userAgent,
      now,
    });
    const claimed = await tx
      .update(inPersonSigningTokens)
      .set({ usedAt: now, sessionId: started.sessionId })
      .where(and(eq(inPersonSigningTokens.id, token.id), isNull(inPersonSigningTokens.usedAt)))
      .returning({ id: inPersonSigningTokens.id });
    if (claimed.length === 0) throw new Error("in-person token claimed concurrently despite the row lock");
    return { state: "opened", packageId: started.packageId, sessionValue: started.sessionValue, expiresAt: started.expiresAt };
  });
}

/** Whether the user who asked for the URL is still active and may still write the package (the rule `hostableSigner` applied at issue). */
async function hostMayStillHost(tx: Db, hostUserId: string | null, packageId: string): Promise<boolean> {
  if (!hostUserId) return false;
  const [host] = await tx.select({ subject: users.authSubject }).from(users).where(eq(users.id, hostUserId));
  if (!host?.subject) return false;
  try {
    const principal = await resolvePrincipal(tx, host.subject);
    if (!hasCapability(principal, "signings:write")) return false;
    await getSigningOrThrow(tx, { principal, packageId, capability: "signings:write" });
    return true;
  } catch (error) {
    if (error instanceof AppError) return false;
    throw error;
  }
}

/** The URL of an in-person signing token: `{APP_URL}/in-person/<token>`. */
export function inPersonSigningUrl(token: string): string {
  return `${getEnv().APP_URL.replace(/\/+$/, "")}/in-person/${token}`;
}
