import { cookies } from "next/headers";
import { getRequestConfig } from "next-intl/server";
import { CATALOGS } from "@/lib/i18n/catalogs";
import { DEFAULT_LOCALE, isLocale, LOCALE_COOKIE, type Locale } from "@/lib/i18n/locales";

/**
 * next-intl's per-request configuration, without locale-prefixed URLs: a borrower's page resolves its
 * locale itself (the borrower's choice, the signer's language, the organization's default: see
 * app/_lib/borrower-locale.ts) and passes it on (`setRequestLocale`, `getTranslations({ locale })`);
 * anything that asks without one gets the borrower's cookie, else English. Times in UTC, like
 * lib/format.ts, so the server and the hydrated client print the same text.
 */
export default getRequestConfig(async ({ requestLocale }) => {
  const requested = await requestLocale;
  let locale: Locale = DEFAULT_LOCALE;
  if (isLocale(requested)) locale = requested;
  else {
    const chosen = (await cookies()).get(LOCALE_COOKIE)?.value;
    if (isLocale(chosen)) locale = chosen;
  }
  return { locale, messages: CATALOGS[locale], timeZone: "UTC" };
});
