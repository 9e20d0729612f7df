import { and, eq, isNull } from "drizzle-orm";
import type { Db } from "@/db/client";
import { brandMarkOf, getOrganizationBranding, type BrandMark } from "@/lib/branding/branding";
import { organizations, packageSigners, signerAccessLinks, signingPackages, type PackageSigner, type SignerAccessLink, type SigningPackage } from "@/db/schema";
import { recordAuditEntry } from "@/lib/audit/record-audit-entry";
import { isOpaqueTokenShape, sha256Hex } from "@/lib/security/secrets";
import { effectiveAuthMethod } from "./effective-auth-method";
import { markSignerAuthPassed } from "./mark-signer-auth-passed";
import { createSignerSession } from "./create-signer-session";
import { sendSignerCode } from "./send-signer-code";
import { resolveBorrowerLocale, type Locale } from "@/lib/i18n/locales";

/** Completed packages too: a signer's done page has the sealed copies. */
const OPEN_STATUSES: readonly SigningPackage["status"][] = ["sent", "in_progress", "completed"];

type LinkRow = { link: SignerAccessLink; signing: SigningPackage; signer: PackageSigner };

/** A link is usable once, while not revoked, before its and its package's expiry, while the package is open or completed. */
function usable(row: LinkRow, now: Date): boolean {
  const { link, signing } = row;
  if (link.usedAt || link.revokedAt) return false;
  if (link.expiresAt && link.expiresAt <= now) return false;
  if (signing.status !== "completed" && signing.expiresAt && signing.expiresAt <= now) return false;
  return OPEN_STATUSES.includes(signing.status);
}

async function findLink(db: Db, token: string, lock = false): Promise<LinkRow | null> {
  if (!isOpaqueTokenShape(token)) return null;
  const query = db
    .select({ link: signerAccessLinks, signing: signingPackages, signer: packageSigners })
    .from(signerAccessLinks)
    .innerJoin(signingPackages, eq(signingPackages.id, signerAccessLinks.packageId))
    .innerJoin(packageSigners, eq(packageSigners.id, signerAccessLinks.signerId))
    .where(eq(signerAccessLinks.tokenHash, sha256Hex(token)))
    .limit(1);
  const [row] = lock ? await query.for("update", { of: signerAccessLinks }) : await query;
  return row ?? null;
}

/** What the link's page (GET) shows. Reading it changes nothing: mail scanners prefetch links. */
export type AccessLinkView =
  | { state: "open"; title: string; senderName: string; signerName: string; language: Locale; brand: BrandMark }
  /** Used, expired, revoked, superseded or unknown: one answer, which offers a new link. */
  | { state: "unusable" };

export async function viewAccessLink(db: Db, options: { token: string; now?: Date }): Promise<AccessLinkView> {
  const row = await findLink(db, options.token);
  if (!row || !usable(row, options.now ?? new Date())) return { state: "unusable" };
  const [org] = await db
    .select({ name: organizations.name, settings: organizations.settings })
    .from(organizations)
    .where(eq(organizations.id, row.signing.organizationId));
  const branding = await getOrganizationBranding(db, row.signing.organizationId);
  return {
    state: "open",
    title: row.signing.title,
    // The lender as borrowers know it (the branding's display name), with its mark for the page.
    senderName: branding?.displayName ?? org?.name ?? "",
    brand: brandMarkOf(branding, org?.name),
    signerName: row.signer.name,
    // The language the lender chose for the signer; the page lets the borrower's own choice win.
    language: resolveBorrowerLocale({ signerLanguage: row.signer.language, organizationDefault: org?.settings.defaultLanguage }),
  };
}

export type OpenedAccessLink = { packageId: string; sessionValue: string; expiresAt: Date };

/**
 * The link's POST: marks the link used and exchanges it for a new signer session (the returned
 * value goes into the cookie; only its SHA-256 is stored), records `signer.link_opened`, and starts
 * the proof: `link` passes at once, `email_code` mails a code. Null when the link is not usable
 * (the caller shows the same page as for an unknown link).
 */
export async function openAccessLink(
  db: Db,
  options: { token: string; ipAddress?: string | null; userAgent?: string | null; now?: Date },
): Promise<OpenedAccessLink | null> {
  const now = options.now ?? new Date();
  return db.transaction(async (tx) => {
    const row = await findLink(tx, options.token, true);
    if (!row || !usable(row, now)) return null;
    const { link, signing, signer } = row;
    const claimed = await tx
      .update(signerAccessLinks)
      .set({ usedAt: now })
      .where(and(eq(signerAccessLinks.id, link.id), isNull(signerAccessLinks.usedAt), isNull(signerAccessLinks.revokedAt)))
      .returning({ id: signerAccessLinks.id });
    if (claimed.length === 0) return null;
    const { session, sessionValue, expiresAt } = await createSignerSession(tx, {
      packageId: signing.id,
      signerId: signer.id,
      linkId: link.id,
      now,
      ipAddress: options.ipAddress,
      userAgent: options.userAgent,
    });
    const method = effectiveAuthMethod(signing, signer);
    await recordAuditEntry(tx, {
      organizationId: signing.organizationId,
      packageId: signing.id,
      actorUserId: null,
      action: "signer.link_opened",
      entityType: "package_signer",
      entityId: signer.id,
      ipAddress: options.ipAddress,
      after: { method, userAgent: options.userAgent?.slice(0, 500) ?? null },
    });
    const evidence = { ipAddress: options.ipAddress, userAgent: options.userAgent, now };
    if (method === "link") await markSignerAuthPassed(tx, { session, signing, signer, method: "link", ...evidence });
    else if (method === "email_code") await sendSignerCode(tx, { session, signing, signer, method: "email_code", ...evidence });
    return { packageId: signing.id, sessionValue, expiresAt };
  });
}
