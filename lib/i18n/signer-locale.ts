import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { organizations } from "@/db/schema";
import type { Principal } from "@/lib/auth/principal";
import { getSignerAssignmentOrThrow } from "@/lib/signings/get-signer-assignment-or-throw";
import { resolveBorrowerLocale, type Locale } from "./locales";

/**
 * The language the lender chose for a signer's emails: the signer's own (`package_signers.language`),
 * else the organization's default (`settings.defaultLanguage`), else English. Emails have no cookie,
 * so the borrower's choice on the page does not apply to them.
 */
export async function organizationDefaultLanguage(db: Db, organizationId: number): Promise<string | null> {
  const [row] = await db.select({ settings: organizations.settings }).from(organizations).where(eq(organizations.id, organizationId));
  return row?.settings.defaultLanguage ?? null;
}

export function signerLocale(signer: { language: string | null }, organizationDefault: string | null): Locale {
  return resolveBorrowerLocale({ signerLanguage: signer.language, organizationDefault });
}

/** The lender's language for the caller as a signer of `packageId` (a page not loaded through `getSignerPackagePage`). */
export async function lenderLanguageForSigner(db: Db, options: { principal: Principal; packageId: string }): Promise<Locale> {
  const { signing, signer } = await getSignerAssignmentOrThrow(db, options);
  return signerLocale(signer, await organizationDefaultLanguage(db, signing.organizationId));
}
