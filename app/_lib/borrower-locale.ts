import { cookies } from "next/headers";
import { setRequestLocale } from "next-intl/server";
import { resolveBorrowerLocale, LOCALE_COOKIE, type Locale } from "@/lib/i18n/locales";

/**
 * The locale of a borrower's page: the borrower's own choice (the switcher's cookie) first, then the
 * language the lender set (`lenderLanguage`: the signer's, else the organization's default), then
 * English. Also makes it the request's locale for next-intl (server components below the page that
 * call `getTranslations()` without a locale).
 */
export async function borrowerLocale(lenderLanguage?: string | null): Promise<Locale> {
  const chosen = (await cookies()).get(LOCALE_COOKIE)?.value;
  const locale = resolveBorrowerLocale({ chosen, signerLanguage: lenderLanguage });
  setRequestLocale(locale);
  return locale;
}
