import type { Db } from "@/db/client";
import type { Principal } from "@/lib/auth/principal";
import type { Locale } from "@/lib/i18n/locales";
import { organizationDefaultLanguage, signerLocale } from "@/lib/i18n/signer-locale";
import { getSignerAssignmentOrThrow } from "@/lib/packages/get-signer-assignment-or-throw";

/** The lender's language for the caller as a signer of `packageId` (a page not loaded through `getSignerPackagePage`). */
export async function lenderLanguageForSigner(db: Db, options: { principal: Principal; packageId: string }): Promise<Locale> {
  const { signing, signer } = await getSignerAssignmentOrThrow(db, options);
  return signerLocale(signer, await organizationDefaultLanguage(db, signing.organizationId));
}
