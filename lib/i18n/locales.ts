/**
 * The languages borrowers can read their pages and emails in. Managers' pages stay English. Safe to
 * import from client components.
 */
export const LOCALES = ["en", "es"] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = "en";

/** The cookie the borrower's language switcher sets (the borrower's own choice wins over the lender's). */
export const LOCALE_COOKIE = "borrower_locale";

export function isLocale(value: unknown): value is Locale {
  return typeof value === "string" && (LOCALES as readonly string[]).includes(value);
}

/** Language names as their speakers write them (the switcher shows each in its own language). */
export const LOCALE_NAMES: Record<Locale, string> = { en: "English", es: "Español" };

/**
 * The borrower's language, in order: their own choice on the page (the cookie), the language the
 * manager set for the signer, the organization's default, English.
 */
export function resolveBorrowerLocale(options: {
  chosen?: string | null;
  signerLanguage?: string | null;
  organizationDefault?: string | null;
}): Locale {
  for (const candidate of [options.chosen, options.signerLanguage, options.organizationDefault]) {
    if (isLocale(candidate)) return candidate;
  }
  return DEFAULT_LOCALE;
}
