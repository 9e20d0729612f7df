import { createTranslator } from "next-intl";
import { CATALOGS } from "./catalogs";
import type { Locale } from "./locales";

/**
 * A translator outside React (emails, texts, server-side error sentences): the same catalogs and ICU
 * syntax the pages use through next-intl.
 */
export function borrowerTranslator<N extends keyof (typeof CATALOGS)[Locale]>(locale: Locale, namespace: N) {
  return createTranslator({ locale, messages: CATALOGS[locale], namespace });
}
