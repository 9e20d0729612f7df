import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { organizations } from "@/db/schema";
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
