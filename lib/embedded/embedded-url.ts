import { and, eq, isNull } from "drizzle-orm";
import type { Db } from "@/db/client";
import { embeddedSigningTokens, packageSigners, signingPackages, users } from "@/db/schema";
import { recordAuditEntry } from "@/lib/audit/record-audit-entry";
import { requireCapability, type Principal } from "@/lib/auth/principal";
import { getEnv } from "@/lib/env";
import { Conflict, NotFound } from "@/lib/errors";
import { isUuid } from "@/lib/ids";
import { markSignerAuthPassed } from "@/lib/signer-access/mark-signer-auth-passed";
import { openLinklessSignerSession } from "@/lib/signer-access/open-linkless-session";
import { isOpaqueTokenShape, newOpaqueToken, sha256Hex } from "@/lib/security/secrets";
import { getSigningOrThrow } from "@/lib/packages/get-signing-or-throw";
import { OPEN_SIGNING_STATUSES } from "@/lib/packages/state-machine";
import { getFramingOrigins } from "./allowed-origins";

/** How long an embedded signing URL can be opened after it is issued. */
export const EMBEDDED_URL_TTL_MS = 5 * 60_000;

export type IssuedEmbeddedUrl = { token: string; expiresAt: Date };

function isOpen(status: string): boolean {
  return (OPEN_SIGNING_STATUSES as readonly string[]).includes(status);
}

/**
 * Issues a single-use embedded signing token for one signer of a sent package (`signings:write` on
 * it; another organization's package is a 404). Only its SHA-256 is stored; it can be opened once,
 * within five minutes. 409 when the package is not sent or in progress, when the signer has signed or
 * declined, or when the organization lists no origin allowed to frame signing.
 */
export async function issueEmbeddedUrl(
  db: Db,
  options: { principal: Principal; packageId: string; signerId: string; ipAddress?: string | null; now?: Date },
): Promise<IssuedEmbeddedUrl> {
  requireCapability(options.principal, "signings:write", "You do not have permission to issue embedded signing URLs.");
  const now = options.now ?? new Date();
  return db.transaction(async (tx) => {
    const signing = await getSigningOrThrow(tx, { principal: options.principal, packageId: options.packageId, capability: "signings:write" });
    const [signer] = isUuid(options.signerId)
      ? await tx.select().from(packageSigners).where(and(eq(packageSigners.id, options.signerId), eq(packageSigners.packageId, signing.id)))
      : [];
    if (!signer) throw NotFound("That signer is not on this package.");
    if (!isOpen(signing.status)) throw Conflict(`This package is ${signing.status.replace("_", " ")}: embedded signing is for a sent package.`);
    if (signer.status === "signed" || signer.status === "declined") throw Conflict(`${signer.name} has already ${signer.status} this package.`);
    if ((await getFramingOrigins(tx, signing.organizationId)).length === 0) {
      throw Conflict("No origin is allowed to frame signing: list your site's origin first (PUT /v1/workspace/settings/embed-origins).");
    }
    const token = newOpaqueToken();
    const expiresAt = new Date(now.getTime() + EMBEDDED_URL_TTL_MS);
    await tx.insert(embeddedSigningTokens).values({
      packageId: signing.id,
      signerId: signer.id,
      tokenHash: sha256Hex(token),
      issuedByUserId: options.principal.user.id,
      expiresAt,
      createdAt: now,
    });
    await recordAuditEntry(tx, {
      organizationId: signing.organizationId,
      packageId: signing.id,
      actorUserId: options.principal.user.id,
      action: "signer.embedded_url_issued",
      entityType: "package_signer",
      entityId: signer.id,
      ipAddress: options.ipAddress,
      after: { expiresAt: expiresAt.toISOString() },
    });
    return { token, expiresAt };
  });
}

/** Why an embedded URL opened nothing. `origins` (the organization's) when the token was known, so the refusal can still be framed. */
export type EmbeddedRefusal = { state: "refused"; reason: "unknown" | "used" | "expired" | "closed" | "origin"; origins: string[] };
export type EmbeddedOpened = { state: "opened"; packageId: string; sessionValue: string; expiresAt: Date; origins: string[] };

/**
 * Opens an embedded signing URL: marks the token used and opens a signer session for its signer and
 * package with the proof passed (method `link`: the lender's site vouched for the signer), audited as
 * `signer.embedded_session_started` with the origins allowed to frame it. A token used before, past
 * its five minutes, unknown, or for a package no longer open (or a signer who has finished) changes
 * nothing and returns the reason. So does one opened by a frame whose parent page (`framedBy`, when
 * the browser tells it) is not on the organization's list: the browser would refuse to show the
 * signing page there, and the URL stays good for the lender's own page.
 */
export async function openEmbeddedUrl(
  db: Db,
  options: { token: string; framedBy?: string | null; ipAddress?: string | null; userAgent?: string | null; now?: Date },
): Promise<EmbeddedOpened | EmbeddedRefusal> {
  const now = options.now ?? new Date();
  if (!isOpaqueTokenShape(options.token)) return { state: "refused", reason: "unknown", origins: [] };
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select({ token: embeddedSigningTokens, signing: signingPackages, signer: packageSigners })
      .from(embeddedSigningTokens)
      .innerJoin(signingPackages, eq(signingPackages.id, embeddedSigningTokens.packageId))
      .innerJoin(packageSigners, eq(packageSigners.id, embeddedSigningTokens.signerId))
      .where(eq(embeddedSigningTokens.tokenHash, sha256Hex(options.token)))
      .limit(1)
      .for("update", { of: embeddedSigningTokens });
    if (!row) return { state: "refused", reason: "unknown", origins: [] };
    const { token, signing, signer } = row;
    const origins = await getFramingOrigins(tx, signing.organizationId);
    const refuse = (reason: EmbeddedRefusal["reason"]): EmbeddedRefusal => ({ state: "refused", reason, origins });
    if (token.usedAt) return refuse("used");
    if (token.expiresAt <= now) return refuse("expired");
    if (!isOpen(signing.status) || (signing.expiresAt && signing.expiresAt <= now)) return refuse("closed");
    if (signer.status === "signed" || signer.status === "declined" || origins.length === 0) return refuse("closed");
    if (options.framedBy != null && !origins.includes(options.framedBy)) return refuse("origin");

    const { session, sessionValue, expiresAt } = await openLinklessSignerSession(tx, {
      packageId: signing.id,
      signerId: signer.id,
      ipAddress: options.ipAddress,
      userAgent: options.userAgent,
      now,
    });
    const claimed = await tx
      .update(embeddedSigningTokens)
      .set({ usedAt: now, sessionId: session.id })
      .where(and(eq(embeddedSigningTokens.id, token.id), isNull(embeddedSigningTokens.usedAt)))
      .returning({ id: embeddedSigningTokens.id });
    if (claimed.length === 0) throw new Error("embedded token claimed concurrently despite the row lock");
    // Who issued the URL: the certificate names the session by it, as an in-person signing names its host.
    const [issuer] = token.issuedByUserId ? await tx.select({ name: users.name, email: users.email }).from(users).where(eq(users.id, token.issuedByUserId)) : [];
    await recordAuditEntry(tx, {
      organizationId: signing.organizationId,
      packageId: signing.id,
      actorUserId: null,
      action: "signer.embedded_session_started",
      entityType: "package_signer",
      entityId: signer.id,
      ipAddress: options.ipAddress,
      after: {
        origins,
        userAgent: options.userAgent?.slice(0, 500) ?? null,
        sessionId: session.id,
        issuedBy: issuer ? { userId: token.issuedByUserId, name: issuer.name, email: issuer.email } : null,
        urlIssuedAt: token.createdAt.toISOString(),
      },
    });
    await markSignerAuthPassed(tx, { session, signing, signer, method: "link", ipAddress: options.ipAddress, userAgent: options.userAgent, now });
    return { state: "opened", packageId: signing.id, sessionValue, expiresAt, origins };
  });
}

/** The URL of an embedded signing token: `{APP_URL}/embed/<token>`. */
export function embeddedSigningUrl(token: string): string {
  return `${getEnv().APP_URL.replace(/\/+$/, "")}/embed/${token}`;
}
